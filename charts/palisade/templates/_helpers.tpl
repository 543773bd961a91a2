{{/* The release's name prefix of every object, at most 63 characters with a component suffix. */}}
{{- define "palisade.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "palisade.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels of every object; call with (dict "root" $ "component" "gateway"). */}}
{{- define "palisade.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
{{ include "palisade.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: palisade
{{- end -}}

{{/* The labels a Service, a Deployment and a NetworkPolicy select a component's pods by. */}}
{{- define "palisade.selectorLabels" -}}
app.kubernetes.io/name: {{ include "palisade.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "palisade.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "palisade.internalSecretName" -}}
{{- default (printf "%s-internal" (include "palisade.fullname" .)) .Values.internal.existingSecret -}}
{{- end -}}

{{- define "palisade.databaseSecretName" -}}
{{- default (printf "%s-database" (include "palisade.fullname" .)) .Values.externalDatabase.existingSecret -}}
{{- end -}}

{{- define "palisade.redisSecretName" -}}
{{- default (printf "%s-redis" (include "palisade.fullname" .)) .Values.externalRedis.existingSecret -}}
{{- end -}}

{{- define "palisade.operatorServiceAccountName" -}}
{{- printf "%s-operator" (include "palisade.fullname" .) -}}
{{- end -}}

{{/* The in-cluster base URL of a component; call with (dict "root" $ "key" "pii"). */}}
{{- define "palisade.componentUrl" -}}
{{- $target := index .root.Values.components .key -}}
{{- printf "http://%s-%s:%d" (include "palisade.fullname" .root) $target.command (int $target.port) -}}
{{- end -}}

{{/* Whether a component runs on a GPU: the global switch and its own. */}}
{{- define "palisade.onGpu" -}}
{{- if and .root.Values.gpu.enabled .component.gpu .component.gpu.enabled -}}true{{- end -}}
{{- end -}}
