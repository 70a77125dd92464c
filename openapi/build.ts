import { coerceString } from './coerce.js';
import { type Fault, underPath } from './faults.js';
import { escapeToken, pointerOfRef, valueAt } from './json-pointer.js';
import type {
  HeaderObject,
  HttpMethod,
  JsonSchema,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  Reference,
  RequestBodyObject,
  ResponseObject,
} from './openapi-types.js';
import { compilePathTemplate, decodeParams, type PathTemplate } from './paths.js';
import { validateRequest } from './request.js';
import type {
  BodySpec,
  CompiledValidator,
  HeaderSpec,
  OperationSpec,
  ParameterSpec,
  PathSpec,
  ResponseSpec,
  Spec,
  Validator,
  ValidatorSource,
} from './spec-types.js';

const METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function isReference(value: unknown): value is Reference {
  return typeof value === 'object' && value !== null && typeof (value as Reference).$ref === 'string';
}

function schemaPointer(name: string): string {
  return `/components/schemas/${escapeToken(name)}`;
}

function basePathOf(document: OpenApiDocument): string {
  const url = document.servers?.[0]?.url ?? '/';
  const path = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? new URL(url.replace(/[{}]/g, '')).pathname : url;
  return path.replace(/\/+$/, '');
}

/** Reads a whole document once: every validator is compiled at most once, never per request. */
export function buildSpec(document: OpenApiDocument, source: ValidatorSource): Spec {
  /**
   * A validator for the schema at a JSON Pointer in the document, so its `$ref`s resolve. It is
   * fetched from the source on its first use and kept: once per process, never per request, and a
   * start-up that does not pay for the validators it never needs.
   */
  const validatorAt = (pointer: string): Validator => {
    source.declare?.(pointer);
    let fn: CompiledValidator | undefined;
    return (value) => {
      fn ??= source.get(pointer);
      return fn(value) ? [] : [...(fn.errors ?? [])];
    };
  };

  /** Follows `$ref`s from a pointer; answers the object and the pointer it really lives at. */
  const resolve = <T>(pointer: string): { node: T; pointer: string } => {
    let current = pointer;
    for (let hops = 0; hops < 32; hops += 1) {
      const node = valueAt(document, current);
      if (!isReference(node)) {
        if (node === undefined) throw new Error(`Nothing at ${current} in the OpenAPI document.`);
        return { node: node as T, pointer: current };
      }
      current = pointerOfRef(node.$ref);
    }
    throw new Error(`$ref cycle at ${pointer} in the OpenAPI document.`);
  };

  /** The schema at a pointer with top-level `$ref`s followed: what coercion reads `type` from. */
  const schemaAt = (pointer: string): JsonSchema => resolve<JsonSchema>(pointer).node;

  const headerSpec = (name: string, pointer: string): HeaderSpec => {
    const { node, pointer: at } = resolve<HeaderObject>(pointer);
    const schemaPointer = `${at}/schema`;
    const schema = node.schema === undefined ? {} : schemaAt(schemaPointer);
    const validate = node.schema === undefined ? () => [] : validatorAt(schemaPointer);
    const required = node.required === true;
    return {
      name,
      required,
      schema,
      validate(raw) {
        if (raw === null) {
          return required
            ? [
                {
                  instancePath: '',
                  schemaPath: '#/required',
                  keyword: 'required',
                  params: {},
                  message: `${name} header is required`,
                },
              ]
            : [];
        }
        const coerced = coerceString(raw, schema);
        return coerced.ok ? validate(coerced.value) : [coerced.fault];
      },
    };
  };

  const bodies = (
    pointer: string,
    content: Readonly<Record<string, { example?: unknown; schema?: JsonSchema }>>,
  ) =>
    new Map<string, BodySpec>(
      Object.entries(content).map(([mediaType, media]) => {
        const schemaPointer = `${pointer}/${escapeToken(mediaType)}/schema`;
        const hasSchema = media.schema !== undefined;
        return [
          mediaType,
          {
            mediaType,
            schema: hasSchema ? schemaAt(schemaPointer) : {},
            validate: hasSchema ? validatorAt(schemaPointer) : () => [],
            example: media.example,
          },
        ];
      }),
    );

  const parameterSpec = (pointer: string): ParameterSpec => {
    const { node, pointer: at } = resolve<ParameterObject>(pointer);
    const schemaPointer = `${at}/schema`;
    const schema = node.schema === undefined ? {} : schemaAt(schemaPointer);
    const validate = node.schema === undefined ? () => [] : validatorAt(schemaPointer);
    const required = node.required === true || node.in === 'path';
    const path = `/${escapeToken(node.name)}`;
    return {
      name: node.name,
      in: node.in,
      required,
      schema,
      parse(raw) {
        if (raw === undefined) {
          const faults: Fault[] = required
            ? [
                {
                  instancePath: path,
                  schemaPath: '#/required',
                  keyword: 'required',
                  params: {},
                  message: 'is required',
                },
              ]
            : [];
          return { value: schema.default, faults };
        }
        const coerced = coerceString(raw, schema);
        if (!coerced.ok) return { value: raw, faults: underPath(path, [coerced.fault]) };
        const faults = validate(coerced.value);
        return { value: coerced.value, faults: faults.length === 0 ? faults : underPath(path, faults) };
      },
    };
  };

  const operationSpec = (
    path: PathTemplate,
    method: HttpMethod,
    operation: OperationObject,
  ): OperationSpec => {
    const { template } = path;
    const opPointer = `/paths/${escapeToken(template)}/${method}`;
    const pathItem = document.paths[template];
    const shared = (pathItem?.parameters ?? []).map(
      (_, i) => `/paths/${escapeToken(template)}/parameters/${i}`,
    );
    const own = (operation.parameters ?? []).map((_, i) => `${opPointer}/parameters/${i}`);
    const parameters = [...shared, ...own].map(parameterSpec);

    let requestBody: OperationSpec['requestBody'];
    if (operation.requestBody !== undefined) {
      const { node, pointer } = resolve<RequestBodyObject>(`${opPointer}/requestBody`);
      requestBody = { required: node.required === true, content: bodies(`${pointer}/content`, node.content) };
    }

    const responses = new Map<string, ResponseSpec>(
      Object.keys(operation.responses).map((status) => {
        const { node, pointer } = resolve<ResponseObject>(`${opPointer}/responses/${status}`);
        const headers = Object.keys(node.headers ?? {}).map((name) =>
          headerSpec(name, `${pointer}/headers/${escapeToken(name)}`),
        );
        const content = bodies(`${pointer}/content`, node.content ?? {});
        return [status, { status, description: node.description, headers, content }];
      }),
    );

    const jsonBody = requestBody?.content.get('application/json');
    const security = operation.security ?? document.security ?? [];
    return {
      id: operation.operationId,
      method: method.toUpperCase(),
      path: template,
      deprecated: operation.deprecated === true,
      requiresAuth:
        security.length > 0 && security.every((requirement) => Object.keys(requirement).length > 0),
      parameters,
      requestBody,
      responses,
      response: (status) =>
        responses.get(String(status)) ?? responses.get(`${String(status)[0]}XX`) ?? responses.get('default'),
      match(pathname) {
        const raw = path.matchRaw(pathname);
        if (raw === null) return null;
        for (const name of Object.keys(raw)) raw[name] = decodeURIComponent(raw[name] ?? '');
        return raw;
      },
      expand: path.expand,
      validateRequest: (request) => validateRequest(parameters, jsonBody, request),
    };
  };

  const operations: OperationSpec[] = [];
  const paths: { spec: PathSpec; pattern: PathTemplate }[] = [];
  for (const [template, pathItem] of Object.entries(document.paths)) {
    // The mock's control API is described in the same document (one source for its types and
    // validators), but it is not the API: the router, the suite and the proxy never see it.
    if (pathItem['x-petkit-control'] === true) continue;
    const pattern = compilePathTemplate(template);
    const byMethod = new Map<string, OperationSpec>();
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (operation === undefined) continue;
      const spec = operationSpec(pattern, method, operation);
      operations.push(spec);
      byMethod.set(spec.method, spec);
    }
    if (byMethod.size > 0) paths.push({ spec: { template, operations: byMethod }, pattern });
  }
  const byId = new Map(operations.map((operation) => [operation.id, operation]));
  const schemaValidators = new Map<string, Validator>();
  for (const name of Object.keys(document.components?.schemas ?? {})) {
    source.declare?.(schemaPointer(name));
  }

  return {
    document,
    basePath: basePathOf(document),
    operations,
    paths: paths.map((path) => path.spec),
    matchPath(pathname) {
      for (const { spec, pattern } of paths) {
        const raw = pattern.matchRaw(pathname);
        if (raw !== null) return { path: spec, params: decodeParams(raw) };
      }
      return undefined;
    },
    operation(id) {
      const found = byId.get(id);
      if (found === undefined) throw new Error(`No operation "${id}" in the OpenAPI document.`);
      return found;
    },
    schema(name) {
      let validator = schemaValidators.get(name);
      if (validator === undefined) {
        if (document.components?.schemas?.[name] === undefined) {
          throw new Error(`No schema "${name}" under components.schemas in the OpenAPI document.`);
        }
        validator = validatorAt(schemaPointer(name));
        schemaValidators.set(name, validator);
      }
      return validator;
    },
  };
}

/** Every pointer a Spec of this document may ask its ValidatorSource for: what the generator compiles. */
export function validatorPointers(document: OpenApiDocument): string[] {
  const pointers = new Set<string>();
  buildSpec(document, {
    declare: (pointer) => pointers.add(pointer),
    get: (pointer) => {
      throw new Error(`validatorPointers only lists pointers; ${pointer} was asked for.`);
    },
  });
  return [...pointers];
}
