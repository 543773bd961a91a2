// The values a list's filter offers: the enum of the query parameter, from the API's own document.
import openapi from './openapi.json';

type Operation = { get?: { parameters?: Array<{ name: string; schema?: { enum?: string[] } }> } };

/** The enum of query parameter `name` of GET `path`; none when the parameter has no enum. */
export function queryEnum(path: string, name: string): string[] {
  const params = (openapi as { paths: Record<string, Operation> }).paths[path]?.get?.parameters ?? [];
  return params.find((p) => p.name === name)?.schema?.enum ?? [];
}
