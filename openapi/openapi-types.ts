// The shape of the parts of an OpenAPI 3.1 document that petkit reads. These describe OpenAPI itself,
// not the Pet Adoption API: the API's own types are generated into api-types.gen.ts.

export type JsonSchema = { readonly [keyword: string]: unknown };

export interface Reference {
  readonly $ref: string;
}

export interface MediaTypeObject {
  readonly [extension: string]: unknown;
  readonly schema?: JsonSchema;
  readonly example?: unknown;
  readonly examples?: Readonly<Record<string, { readonly value?: unknown }>>;
}

export interface HeaderObject {
  readonly [extension: string]: unknown;
  readonly description?: string;
  readonly required?: boolean;
  readonly schema?: JsonSchema;
  readonly example?: unknown;
}

export interface ParameterObject {
  readonly [extension: string]: unknown;
  readonly name: string;
  readonly in: 'query' | 'path' | 'header' | 'cookie';
  readonly required?: boolean;
  readonly description?: string;
  readonly schema?: JsonSchema;
  readonly example?: unknown;
}

export interface ResponseObject {
  readonly [extension: string]: unknown;
  readonly description: string;
  readonly headers?: Readonly<Record<string, HeaderObject | Reference>>;
  readonly content?: Readonly<Record<string, MediaTypeObject>>;
}

export interface RequestBodyObject {
  readonly [extension: string]: unknown;
  readonly required?: boolean;
  readonly description?: string;
  readonly content: Readonly<Record<string, MediaTypeObject>>;
}

export interface OperationObject {
  readonly [extension: string]: unknown;
  readonly operationId: string;
  readonly summary?: string;
  readonly description?: string;
  readonly deprecated?: boolean;
  readonly parameters?: readonly (ParameterObject | Reference)[];
  readonly requestBody?: RequestBodyObject | Reference;
  readonly responses: Readonly<Record<string, ResponseObject | Reference>>;
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
}

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

export type PathItemObject = { readonly [method in HttpMethod]?: OperationObject } & {
  readonly parameters?: readonly (ParameterObject | Reference)[];
  readonly servers?: readonly { readonly url: string; readonly description?: string }[];
  /** petkit's own: a path of the mock's control API (`/__petkit/*`), not of the API the document describes. */
  readonly 'x-petkit-control'?: boolean;
  readonly 'x-petkit-decision'?: string;
};

export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: { readonly title: string; readonly version: string; readonly [key: string]: unknown };
  readonly servers?: readonly {
    readonly url: string;
    readonly description?: string;
    readonly variables?: unknown;
  }[];
  readonly paths: Readonly<Record<string, PathItemObject>>;
  readonly components?: { readonly [section: string]: Readonly<Record<string, unknown>> | undefined };
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
  readonly [key: string]: unknown;
}
