{{- /* The login's Secret (generated values kept across upgrades) and each login component's variables. */ -}}
{{- define "palisade.authSecretName" -}}
{{- default (printf "%s-auth" (include "palisade.fullname" .)) .Values.auth.existingSecret -}}
{{- end -}}

{{- define "palisade.authSecretEnv" -}}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ include "palisade.authSecretName" .root }}
      key: {{ .key }}
{{- end -}}

{{- define "palisade.authEnv" -}}
{{- $root := .root }}
{{- $auth := $root.Values.auth }}
{{- $issuer := ternary $auth.idpUrl $auth.external.issuerUrl (eq $auth.identityProvider "builtin") }}
{{- if eq .command "admin-api" }}
- name: AUTH_PROXY_ENABLED
  value: {{ $auth.enabled | quote }}
- name: IDENTITY_PROVIDER
  value: {{ $auth.identityProvider | quote }}
{{ include "palisade.authSecretEnv" (dict "root" $root "name" "AUTH_PROXY_SHARED_SECRET" "key" "proxy-shared-secret") }}
{{- else if eq .command "idp" }}
- name: IDP_ISSUER
  value: {{ $auth.idpUrl | quote }}
- name: IDP_REDIRECT_URIS
  value: {{ printf "%s/oauth2/callback" (trimSuffix "/" $auth.proxyUrl) | quote }}
- name: IDP_SESSION_IDLE_MINUTES
  value: {{ $auth.sessionIdleMinutes | quote }}
- name: IDP_TRUST_PROXY
  value: "true"
- name: ADMIN_USER_EMAIL
  value: {{ $auth.adminUser.email | quote }}
- name: ADMIN_USER_TENANT
  value: {{ $auth.adminUser.tenant | quote }}
{{ include "palisade.authSecretEnv" (dict "root" $root "name" "ADMIN_USER_PASSWORD" "key" "admin-user-password") }}
{{- else if eq .command "auth-proxy" }}
- name: AUTH_PROXY_ISSUER_URL
  value: {{ required "auth.external.issuerUrl is required with auth.identityProvider=external" $issuer | quote }}
- name: AUTH_PROXY_REDIRECT_URL
  value: {{ printf "%s/oauth2/callback" (trimSuffix "/" $auth.proxyUrl) | quote }}
- name: AUTH_PROXY_CLIENT_ID
  value: {{ $auth.external.clientId | quote }}
- name: AUTH_PROXY_USER_CLAIM
  value: {{ $auth.external.userClaim | quote }}
- name: AUTH_PROXY_GROUPS_CLAIM
  value: {{ $auth.external.groupsClaim | quote }}
- name: AUTH_PROXY_TENANT_CLAIM
  value: {{ $auth.external.tenantClaim | quote }}
- name: AUTH_PROXY_AUDIENCE
  value: {{ $auth.external.audience | quote }}
{{ include "palisade.authSecretEnv" (dict "root" $root "name" "AUTH_PROXY_SHARED_SECRET" "key" "proxy-shared-secret") }}
{{ include "palisade.authSecretEnv" (dict "root" $root "name" "AUTH_PROXY_COOKIE_SECRET" "key" "cookie-secret") }}
{{- if $auth.clientSecret }}
{{ include "palisade.authSecretEnv" (dict "root" $root "name" "AUTH_PROXY_CLIENT_SECRET" "key" "client-secret") }}
{{- end }}
{{- end }}
{{- end -}}
