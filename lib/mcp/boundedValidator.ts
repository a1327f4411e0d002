/**
 * The JSON Schema provider the MCP client checks tool results with. A tool's `outputSchema` and its
 * result both come from the service, so the schema goes through the same bounded copy as OpenAPI
 * request schemas (lib/api/serviceSchema.ts): no backtracking regex or format, no exponential
 * $ref fan-out. A schema too costly to check is skipped: the result is still shown only through
 * our own bounded rendering.
 */
import { Validator } from '@cfworker/json-schema';
import type { JsonSchemaType, jsonSchemaValidator, JsonSchemaValidator } from '@modelcontextprotocol/client';
import { log } from '@/lib/log';
import { assertValidationCost, sanitizeServiceSchema, SchemaTooComplexError } from '@/lib/api/serviceSchema';

export class BoundedJsonSchemaValidator implements jsonSchemaValidator {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let sanitized: ReturnType<typeof sanitizeServiceSchema> | undefined;
    try {
      // `#/$defs/…` references resolve against the schema itself.
      sanitized = sanitizeServiceSchema(schema, schema);
    } catch (error) {
      if (!(error instanceof SchemaTooComplexError)) throw error;
      log.warn('mcp.schema-skipped', { reason: error.message });
    }
    if (sanitized && sanitized.dropped.length > 0)
      log.warn('mcp.schema-loosened', { dropped: sanitized.dropped });
    const validator = sanitized && new Validator(sanitized.schema, '2020-12', true);
    return (input) => {
      if (sanitized && validator) {
        try {
          assertValidationCost(sanitized, input);
        } catch (error) {
          if (!(error instanceof SchemaTooComplexError)) throw error;
          log.warn('mcp.schema-skipped', { reason: error.message });
          return { valid: true, data: input as T, errorMessage: undefined };
        }
        const result = validator.validate(input);
        if (!result.valid) {
          const first = result.errors.find(
            (unit) => unit.keyword !== '$ref' && unit.keyword !== 'properties',
          );
          return {
            valid: false,
            data: undefined,
            errorMessage: `${first?.instanceLocation ?? '#'}: ${first?.error ?? 'does not match the output schema'}`,
          };
        }
      }
      return { valid: true, data: input as T, errorMessage: undefined };
    };
  }
}
