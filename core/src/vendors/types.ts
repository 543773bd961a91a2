// The shape of a vendor's folder: everything Palisade knows about one vendor, as plain data, read by
// the mapping presets, the gateway (stream reading, usage counting, upstream auth) and the mock LLM.
// Only types here, so the mapping module's tables and the vendor folders can refer to each other.
import type { FieldMapping, MappingPresetName, ProviderTypeName } from '../mapping/presets.js';

/** A step of a path into a JSON frame: a key, an array index, or `*` for every element. */
export type PathStep = string | number;
export type JsonPath = readonly PathStep[];

/**
 * How a tool call's arguments are held: a JSON text inside a string (vendor_a's `arguments`) or a
 * JSON value (vendor_b's `input`, vendor_d's `args`). Either way they are scanned as JSON text.
 * `name`: the tool's name, plain text the model wrote (so an attacker's, through a prompt injection)
 * that reaches the client like the answer: scanned as text, in a slot of its own, and whole in the
 * frame that carries it (every vendor sends a call's name in one piece).
 */
export type ToolArgumentsEncoding = 'json_text' | 'object' | 'name';

/** Where a preset's buffered answer carries tool-call arguments or names (full JSONPath, like response_path). */
export interface ToolArgumentsPath {
  readonly path: string;
  readonly encoding: ToolArgumentsEncoding;
}

/**
 * A stream's channel of tool-call arguments: where a frame carries them (fragments of a JSON text, or
 * a whole value per frame), scanned in a slot of their own per tool call, apart from the answer text.
 * With encoding `name`, the channel of the calls' names (a slot per call too, apart from its arguments).
 */
export interface ToolArgumentsChannel {
  /** Only frames whose value at `path` equals `equals` carry arguments. */
  readonly when?: { readonly path: JsonPath; readonly equals: string };
  /** An array of parallel answers (choices); absent = the frame is one item. */
  readonly items?: JsonPath;
  /** Within an item, its answer slot (choice index, content block index, output item id). */
  readonly slot: JsonPath;
  /** Within an item, the array of tool calls (each its own slot, keyed by `callSlot`); absent = one. */
  readonly calls?: JsonPath;
  readonly callSlot?: JsonPath;
  /** Within a call (or the item), the parent objects of the arguments (`*` for every element) and their key. */
  readonly parent: JsonPath;
  readonly key: string;
  readonly encoding: ToolArgumentsEncoding;
  /** Each frame repeats the call's whole arguments so far (vendor_j), not a fragment. */
  readonly cumulative?: boolean;
}

/** How a streamed body is framed: `text/event-stream`, or one JSON object per line. */
export type StreamFormat = 'sse' | 'ndjson';

/**
 * A rule that reads answer text out of one stream frame. A rule claims a frame when its `when`
 * condition holds and its `text` path reaches at least one string (an empty string counts, so a
 * role-only first chunk is claimed and adds nothing). The first claiming rule wins.
 */
export interface DeltaRule {
  readonly name: string;
  /** Vendors whose streams use this frame shape (documentation; matching is by shape). */
  readonly vendors: readonly string[];
  readonly format: StreamFormat;
  /** Only frames whose value at `path` equals `equals`. */
  readonly when?: { readonly path: JsonPath; readonly equals: string | number | boolean };
  /** An array of parallel answers (choices): each element is read separately, keyed by `slot`. */
  readonly items?: JsonPath;
  /** Within an item, the key of its answer (choice `index`); the item's position when absent. */
  readonly slot?: JsonPath;
  /** Path to the text, from the item (or the frame when there are no items); `*` collects every element. */
  readonly text: JsonPath;
  /** Each frame carries the slot's whole text so far (vendor_j), not a delta. */
  readonly cumulative?: boolean;
}

/** How the end of a stream is recognised. A frame matching any marker completes the stream. */
export interface EndMarker {
  readonly name: string;
  readonly format: StreamFormat;
  /** The raw SSE data equals this (e.g. `[DONE]`). */
  readonly data?: string;
  /** The SSE event name equals this. */
  readonly event?: string;
  /** The JSON frame's value at `path` equals `equals`. */
  readonly path?: JsonPath;
  readonly equals?: string | number | boolean;
}

/** One SSE event (or NDJSON line, its `data`) as it goes to the client. */
export interface OutgoingEvent {
  event?: string | undefined;
  data: string;
}

/** A whole-text repeat: `parent[key]` holds the slot's text. */
export interface RepeatPlace {
  slot: string;
  parent: Record<string, unknown>;
  key: string;
}

/** What a refused stream tells the client, in the vendor's own error event. */
export interface StreamRefusal {
  message: string;
  code: string;
  type: string;
  traceId: string;
}

/**
 * A stream format the gateway scans on the fly: where a frame carries answer text (per answer slot),
 * how that text is written back, how the stream ends and how a mid-stream refusal is told.
 */
export interface StreamCodec {
  readonly name: string;
  /** How the stream is framed (default `sse`). */
  readonly format?: StreamFormat;
  /** Upstream paths (target path suffixes) whose streams this codec reads. */
  readonly pathSuffixes: readonly string[];
  /** The path itself asks for a stream (no `stream: true` in the body). */
  readonly streamingPath?: boolean;
  /**
   * Where the request body asks for a stream (default `stream: true`); `byDefault`: a body without
   * the field streams too (vendor_g's runner streams unless told not to).
   */
  readonly streamFlag?: { readonly path: JsonPath; readonly byDefault?: boolean };
  /**
   * Each frame carries the slot's whole text so far (vendor_j), not a delta: the delta is the part
   * beyond what the slot had, and a released frame is rewritten to carry the text sent so far.
   */
  readonly cumulative?: boolean;
  /** Only frames whose value at `path` equals `equals` carry text. */
  readonly when?: { readonly path: JsonPath; readonly equals: string };
  /** An array of parallel answers (choices); absent = the frame is one item. */
  readonly items?: JsonPath;
  /** Within an item, its answer slot (choice index, content block index). */
  readonly slot: JsonPath;
  /** A second part of the slot key (the content part of an output item). */
  readonly slotPart?: JsonPath;
  /** Within an item, the parent objects of the text (`*` for every element) and the text's key. */
  readonly textParent: JsonPath;
  readonly textKey: string;
  /**
   * The raw data of the end marker, its event name, or (NDJSON) a value of the frame at `path`;
   * none: the stream ends with its body.
   */
  readonly end: { readonly data?: string; readonly event?: string; readonly path?: JsonPath; readonly equals?: string | number | boolean };
  /** The events (NDJSON: lines) that end a refused stream: the vendor's error event, then its end marker. */
  refusal(error: StreamRefusal): OutgoingEvent[];
  /**
   * Places where a frame repeats a slot's whole text so far (the Responses API's `*.done` events and
   * `response.completed`): they get the slot's text as sent to the client.
   */
  repeats?(frame: Record<string, unknown>): RepeatPlace[];
  /** Where frames carry tool-call arguments, each call scanned in a slot of its own. */
  readonly toolArguments?: readonly ToolArgumentsChannel[];
}

/** A vendor's stream formats: the buffered reader's rules and the on-the-fly scanner's codecs. */
export interface VendorStreams {
  readonly deltaRules?: readonly DeltaRule[];
  readonly endMarkers?: readonly EndMarker[];
  readonly codecs?: readonly StreamCodec[];
}

/**
 * Where a vendor's answers report token usage. `objects` hold counts under the names of `input` and
 * `output` (every vendor's names are tried in every such object, as vendors copy each other's);
 * `counts` are places with names of their own. `markers`: without one of these strings in the body
 * the answer carries no usage.
 */
export interface VendorUsage {
  readonly objects?: readonly JsonPath[];
  readonly input?: readonly string[];
  readonly output?: readonly string[];
  readonly counts?: readonly { readonly at: JsonPath; readonly input: string; readonly output: string }[];
  readonly markers?: readonly string[];
}

/** The body a vendor answers an error with. */
export type ErrorBody = (status: number, message: string) => unknown;

/** One API of a vendor: its HTTP method and path patterns (`:name` one segment, `*` the rest). */
export interface VendorApi {
  readonly method: 'GET' | 'POST';
  readonly paths: readonly string[];
  /** The custom method after `:` in the last segment (`/models/{model}:generateContent`). */
  readonly action?: string;
  /** Body fields the API requires. */
  readonly required?: readonly string[];
  /** The mapping preset that reads its bodies. */
  readonly preset?: MappingPresetName;
  /** Its error body, when it is not the vendor's. */
  readonly errorBody?: ErrorBody;
  /**
   * Where the mock answers this API's sample request: the preset's sample exchange request
   * (`presetSamples`), with `with` merged in for what this API needs beyond it (a field it requires, a
   * non-streaming flag). The preset must read its prompt, the mock answer it.
   */
  readonly sample?: { readonly path: string; readonly with?: Readonly<Record<string, unknown>> };
}

/** How a vendor authenticates callers, where Palisade has a default for it. */
export interface VendorAuth {
  readonly type: 'passthrough' | 'bearer' | 'api_key_header' | 'oauth2_client_credentials';
  /** api_key_header: the header carrying the key. */
  readonly header?: string;
  /** oauth2_client_credentials: the scope its token endpoint grants when a request names none. */
  readonly scope?: string;
  /** oauth2_client_credentials: the header of the unique id each token request must carry. */
  readonly requestIdHeader?: string;
}

/** A request in a preset's format and its answer. */
export interface MappingSample {
  request: unknown;
  response: unknown;
}

export interface Vendor {
  /** The folder's name. */
  readonly id: string;
  /** The provider types of the spec this vendor is (none for formats only reached via `custom`). */
  readonly providerTypes: readonly ProviderTypeName[];
  /** Its mapping presets, by name. */
  readonly presets: Partial<Record<MappingPresetName, FieldMapping>>;
  /** The preset the UI proposes for each of its provider types. */
  readonly recommendedPresets?: Partial<Record<ProviderTypeName, MappingPresetName>>;
  /** One sample exchange per preset of the folder. */
  readonly presetSamples?: Partial<Record<MappingPresetName, MappingSample>>;
  /** Where each preset's answers carry tool-call arguments, scanned like the answer text. */
  readonly toolArguments?: Partial<Record<MappingPresetName, readonly ToolArgumentsPath[]>>;
  readonly apis: Readonly<Record<string, VendorApi>>;
  readonly streams?: VendorStreams;
  readonly usage?: VendorUsage;
  readonly errorBody?: ErrorBody;
  readonly auth?: VendorAuth;
}
