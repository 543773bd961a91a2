// The Go-template subset behaves as Go's text/template (with Helm's functions) does for the chart.
import t from 'tap';
import { TemplateSet } from './go-template.js';

function run(source: string, root: Record<string, unknown> = {}, defines = ''): string {
  const set = new TemplateSet();
  if (defines) set.add('_helpers.tpl', defines);
  set.add('t.yaml', source);
  return set.render('t.yaml', root);
}

t.test('trim markers remove the whitespace beside them, and only there', async (t) => {
  t.equal(run('a  {{- "b" -}}  c'), 'abc');
  t.equal(run('a  {{ "b" }}  c'), 'a  b  c');
  t.equal(run('x:\n  {{- if true }}\n  y: 1\n  {{- end }}\n'), 'x:\n  y: 1\n');
  t.equal(run('a {{/* a comment */}} b'), 'a  b');
  t.equal(run('a\n{{- /* a comment */ -}}\nb'), 'ab');
  t.equal(run('{{ "}}" }}'), '}}', 'braces inside strings do not close an action');
});

t.test('fields, variables and scopes follow Go', async (t) => {
  const root = { Values: { a: { b: 'deep' }, n: 8085, empty: '' } };
  t.equal(run('{{ .Values.a.b }}', root), 'deep');
  t.equal(run('{{ .Values.missing }}', root), '', 'a missing key prints nothing');
  t.throws(() => run('{{ .Values.missing.x }}', root), /nil pointer evaluating \.x/);
  t.equal(run('{{ $x := "one" }}{{ if true }}{{ $x = "two" }}{{ end }}{{ $x }}'), 'two', '= assigns the outer variable');
  t.equal(run('{{ $x := "one" }}{{ if true }}{{ $x := "two" }}{{ end }}{{ $x }}'), 'one', ':= inside a block shadows');
  t.throws(() => run('{{ if true }}{{ $y := 1 }}{{ end }}{{ $y }}'), /undefined variable \$y/);
  t.equal(run('{{ with .Values.a }}{{ .b }}/{{ $.Values.n }}{{ end }}', root), 'deep/8085', '$ is the root inside with');
  t.equal(run('{{ with .Values.empty }}x{{ else }}none{{ end }}', root), 'none');
});

t.test('if / else if / else and Go truthiness', async (t) => {
  const pick = (v: unknown) => run('{{ if eq .v 1 }}one{{ else if .v }}truthy{{ else }}falsy{{ end }}', { v });
  t.equal(pick(1), 'one');
  t.equal(pick('x'), 'truthy');
  for (const falsy of [0, '', false, null, [], {}]) t.equal(pick(falsy), 'falsy', `${JSON.stringify(falsy)} is false`);
  t.equal(run('{{ and 1 "" 3 }}|{{ or "" 0 "z" }}|{{ not "" }}'), '|z|true', 'and/or return the deciding argument');
  t.equal(run('{{ and .a .a.b }}', { a: null }), '', 'and short-circuits before a nil field');
});

t.test('range over maps goes in key order; over lists with index', async (t) => {
  t.equal(run('{{ range $k, $v := .m }}{{ $k }}={{ $v }};{{ end }}', { m: { b: 2, a: 1, c: 3 } }), 'a=1;b=2;c=3;');
  t.equal(run('{{ range $i, $v := .l }}{{ $i }}:{{ . }} {{ end }}', { l: ['x', 'y'] }), '0:x 1:y ');
  t.equal(run('{{ range .l }}x{{ else }}empty{{ end }}', { l: [] }), 'empty');
});

t.test('define / include, pipelines and the Helm functions the chart uses', async (t) => {
  const defines = '{{- define "greet" -}}hello {{ .name }}{{- end -}}';
  t.equal(run('{{ include "greet" (dict "name" "ops") | upper }}', {}, defines), 'HELLO OPS');
  t.equal(run('a:{{ include "greet" (dict "name" "x") | nindent 2 }}', {}, defines), 'a:\n  hello x');
  t.equal(run('{{ toYaml .v | nindent 2 }}', { v: { b: [1, 2], a: 'x' } }), '\n  a: x\n  b:\n    - 1\n    - 2', 'toYaml sorts keys');
  t.equal(run('{{ printf "%s-%d:%q" "a" 8.0 "b" }}'), 'a-8:"b"');
  t.equal(run('{{ .v | default "fallback" | quote }}', { v: '' }), '"fallback"');
  t.equal(run('{{ "p@ss word" | urlquery }}'), 'p%40ss+word');
  t.equal(run('{{ "abc" | b64enc }}'), 'YWJj');
  t.equal(run('{{ (merge (dict "a" 1) (dict "a" 2 "b" 3)) | toJson }}'), '{"a":1,"b":3}', 'merge: the left-most wins');
  t.equal(run('{{ concat (list 1) (list 2 3) | toJson }}'), '[1,2,3]');
  t.equal(run('{{ ternary "y" "n" false }}'), 'n');
  t.equal(run('{{ "my-release-name" | trunc 10 | trimSuffix "-" }}'), 'my-release');
  t.equal(run('{{ index .m "a-b" }}', { m: { 'a-b': 'dash' } }), 'dash');
  t.match(run('{{ randAlphaNum 12 }}'), /^[A-Za-z0-9]{12}$/);
  t.throws(() => run('{{ required "host is required" .h }}', { h: '' }), /host is required/);
  t.throws(() => run('{{ fail "stop here" }}'), /stop here/);
});

t.test('anything outside the subset fails loudly', async (t) => {
  t.throws(() => run('{{ nosuchfunc 1 }}'), /function "nosuchfunc" not defined/);
  t.throws(() => run('{{ if true }}x'), /missing \{\{ end \}\}/);
  t.throws(() => run('{{ end }}'), /unexpected \{\{ end \}\}/);
  t.throws(() => run('{{ include "nope" . }}'), /no template "nope"/);
  t.throws(() => run('{{ .m }}', { m: { a: 1 } }), /cannot print a map/);
  t.throws(() => run('{{ "a" "b" }}'), /non-function/);
});
