// The contract as petkit reads it: a Spec of the whole document, its operations, parameters,
// bodies and responses, each with the validators it needs. Built by build.ts.
import type { Fault, FaultDetail } from './faults.js';
import type { JsonSchema, OpenApiDocument, ParameterObject } from './openapi-types.js';

/** Checks a value; an empty list means it is valid. */
export type Validator = (value: unknown) => Fault[];

/** A compiled validator, as ajv makes it at run time or as standalone code: a test, then its faults. */
export interface CompiledValidator {
  (value: unknown): boolean;
  errors?: Fault[] | null;
}

/**
 * Where a Spec's validators come from, by the JSON Pointer of their schema in the document:
 * precompiled for openapi.yaml (`npm run generate`, loaded by loadSpec), or compiled by ajv at run
 * time for any other document (`ajvSource`).
 */
export interface ValidatorSource {
  /** The validator for the schema at a pointer; asked once, on the validator's first use. */
  get(pointer: string): CompiledValidator;
  /** Told every pointer the Spec may validate against, as it is built (the generator lists them). */
  declare?(pointer: string): void;
}

export interface ParameterSpec {
  readonly name: string;
  readonly in: ParameterObject['in'];
  readonly required: boolean;
  /** The parameter's schema, `$ref`s resolved at the top level. */
  readonly schema: JsonSchema;
  /**
   * Reads the raw string (undefined when absent) as its schema says and validates it. Faults point
   * at `/name`. An absent optional parameter gives its schema's default (or undefined).
   */
  parse(raw: string | undefined): { value: unknown; faults: Fault[] };
}

export interface HeaderSpec {
  /** As written in the document; HTTP header names are case-insensitive. */
  readonly name: string;
  readonly required: boolean;
  readonly schema: JsonSchema;
  /** Validates a header's raw value (null when absent). */
  validate(raw: string | null): Fault[];
}

export interface BodySpec {
  readonly mediaType: string;
  readonly schema: JsonSchema;
  readonly validate: Validator;
  /** The example given for this body in the document, if any. */
  readonly example: unknown;
}

export interface ResponseSpec {
  /** The key under `responses`: `200`, `4XX` or `default`. */
  readonly status: string;
  readonly description: string;
  readonly headers: readonly HeaderSpec[];
  /** Bodies by media type. */
  readonly content: ReadonlyMap<string, BodySpec>;
}

export interface OperationSpec {
  readonly id: string;
  /** Upper case: `GET`, `POST`. */
  readonly method: string;
  /** The path template under the server's base path: `/pets/{petId}`. */
  readonly path: string;
  readonly deprecated: boolean;
  readonly requiresAuth: boolean;
  readonly parameters: readonly ParameterSpec[];
  readonly requestBody:
    | { readonly required: boolean; readonly content: ReadonlyMap<string, BodySpec> }
    | undefined;
  readonly responses: ReadonlyMap<string, ResponseSpec>;
  /** The documented response for a status: the exact code, then its `4XX` range, then `default`. */
  response(status: number): ResponseSpec | undefined;
  /**
   * The path parameters, percent-decoded, when `pathname` (without the base path) is this operation's
   * path, else null. Throws URIError when a parameter's percent-encoding does not decode.
   */
  match(pathname: string): Record<string, string> | null;
  /** The path with its parameters filled in (each percent-encoded). */
  expand(params: Readonly<Record<string, string | number>>): string;
  /**
   * Checks a request's parameters, then (if they pass) reads and checks its JSON body: the request
   * as its schemas read it, why it is invalid, or why its body could not be read. The verdict comes
   * at once when the parameters decide it or the operation takes no body; a promise of it when the
   * body must be read (`await` takes either).
   */
  validateRequest<Refusal>(
    request: RequestParts<Refusal>,
  ): RequestVerdict<Refusal> | Promise<RequestVerdict<Refusal>>;
}

/** One path of the document and its operations. */
export interface PathSpec {
  /** Under the server's base path: `/pets/{petId}`. */
  readonly template: string;
  /** By method, upper case. */
  readonly operations: ReadonlyMap<string, OperationSpec>;
}

export interface PathMatch {
  readonly path: PathSpec;
  /** The path's parameters, percent-decoded; null when their percent-encoding does not decode. */
  readonly params: Record<string, string> | null;
}

export interface Spec {
  readonly document: OpenApiDocument;
  /** The path of the first server's URL: `/v1`. */
  readonly basePath: string;
  readonly operations: readonly OperationSpec[];
  /** The document's paths, in its order. */
  readonly paths: readonly PathSpec[];
  /** The path a pathname (without the base path) has the shape of, and its parameters; undefined for none. */
  matchPath(pathname: string): PathMatch | undefined;
  /** The operation by its operationId; throws for an unknown id. */
  operation(id: string): OperationSpec;
  /** A validator for a named schema under `components.schemas`; throws for an unknown name. */
  schema(name: string): Validator;
}

/** What validateRequest reads of a request. `Refusal` is the caller's reason a body cannot be read. */
export interface RequestParts<Refusal> {
  /** The path's parameters, percent-decoded (Spec.matchPath); null when they do not decode. */
  readonly pathParams: Readonly<Record<string, string>> | null;
  /** The query string's parameters; undefined when the request has no query string. */
  readonly query: URLSearchParams | undefined;
  /** Reads the body as JSON, or says why it cannot be (too large, not JSON, another media type). */
  readBody(): Promise<{ readonly value: unknown; readonly text?: string } | { readonly refusal: Refusal }>;
}

export type RequestVerdict<Refusal> =
  | {
      readonly kind: 'valid';
      /** Every parameter by name, read as its schema says (an absent one as its default). */
      readonly params: Readonly<Record<string, unknown>>;
      /** The JSON body, for an operation that takes one. */
      readonly body: unknown;
    }
  | {
      readonly kind: 'invalid';
      /** Where the first fault is: `path`, `query` or `body`. */
      readonly where: string;
      /** The faults in a sentence: `Invalid query: /limit must be <= 100.` */
      readonly message: string;
      /** Each fault: a JSON Pointer into the part named by `where`, and what is wrong there. */
      readonly details: readonly FaultDetail[];
    }
  | { readonly kind: 'refused'; readonly refusal: Refusal };
