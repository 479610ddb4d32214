/**
 * A JSON Schema (draft 2020-12) of the OpenLineage 2-0-2 RunEvent and of the facets we emit, written
 * for these tests from the published specification: a BaseEvent (eventTime, producer, schemaURL),
 * the RunEvent's eventType, run, job, inputs and outputs, and every facet carrying `_producer` and
 * `_schemaURL`. Stricter than the specification where our events promise more (a terminal event of
 * ours always names its datasets' namespace and name; column lineage always names its input fields).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const baseFacet = {
  type: 'object',
  required: ['_producer', '_schemaURL'],
  properties: {
    _producer: { type: 'string', format: 'uri' },
    _schemaURL: { type: 'string', format: 'uri' },
  },
  additionalProperties: true,
};
const deletableFacet = {
  allOf: [{ $ref: '#/$defs/BaseFacet' }, { type: 'object', properties: { _deleted: { type: 'boolean' } } }],
};

export const runEventSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://example.test/openlineage-2-0-2-run-event.json',
  $ref: '#/$defs/RunEvent',
  $defs: {
    BaseFacet: baseFacet,
    BaseEvent: {
      type: 'object',
      required: ['eventTime', 'producer', 'schemaURL'],
      properties: {
        eventTime: { type: 'string', format: 'date-time' },
        producer: { type: 'string', format: 'uri' },
        schemaURL: { type: 'string', format: 'uri' },
      },
    },
    RunEvent: {
      allOf: [
        { $ref: '#/$defs/BaseEvent' },
        {
          type: 'object',
          required: ['run', 'job'],
          properties: {
            eventType: { enum: ['START', 'RUNNING', 'COMPLETE', 'ABORT', 'FAIL', 'OTHER'] },
            run: { $ref: '#/$defs/Run' },
            job: { $ref: '#/$defs/Job' },
            inputs: { type: 'array', items: { $ref: '#/$defs/InputDataset' } },
            outputs: { type: 'array', items: { $ref: '#/$defs/OutputDataset' } },
          },
        },
      ],
    },
    Run: {
      type: 'object',
      required: ['runId'],
      properties: {
        runId: { type: 'string', format: 'uuid' },
        facets: {
          type: 'object',
          properties: {
            errorMessage: { $ref: '#/$defs/ErrorMessageRunFacet' },
            svc_run: { $ref: '#/$defs/SvcRunFacet' },
          },
          additionalProperties: { $ref: '#/$defs/BaseFacet' },
        },
      },
    },
    Job: {
      type: 'object',
      required: ['namespace', 'name'],
      properties: {
        namespace: { type: 'string', minLength: 1 },
        name: { type: 'string', minLength: 1 },
        facets: {
          type: 'object',
          properties: { jobType: { $ref: '#/$defs/JobTypeJobFacet' } },
          additionalProperties: deletableFacet,
        },
      },
    },
    Dataset: {
      type: 'object',
      required: ['namespace', 'name'],
      properties: {
        namespace: { type: 'string', minLength: 1 },
        name: { type: 'string', minLength: 1 },
        facets: {
          type: 'object',
          properties: {
            schema: { $ref: '#/$defs/SchemaDatasetFacet' },
            columnLineage: { $ref: '#/$defs/ColumnLineageDatasetFacet' },
          },
          additionalProperties: deletableFacet,
        },
      },
    },
    InputDataset: {
      allOf: [
        { $ref: '#/$defs/Dataset' },
        {
          type: 'object',
          properties: { inputFacets: { type: 'object', additionalProperties: { $ref: '#/$defs/BaseFacet' } } },
        },
      ],
    },
    OutputDataset: {
      allOf: [
        { $ref: '#/$defs/Dataset' },
        {
          type: 'object',
          properties: {
            outputFacets: {
              type: 'object',
              properties: { outputStatistics: { $ref: '#/$defs/OutputStatisticsOutputDatasetFacet' } },
              additionalProperties: { $ref: '#/$defs/BaseFacet' },
            },
          },
        },
      ],
    },
    SchemaDatasetFacet: {
      allOf: [
        { $ref: '#/$defs/BaseFacet' },
        {
          type: 'object',
          required: ['fields'],
          properties: {
            fields: {
              type: 'array',
              items: {
                type: 'object',
                required: ['name'],
                properties: {
                  name: { type: 'string', minLength: 1 },
                  type: { type: 'string' },
                  description: { type: 'string' },
                },
              },
            },
          },
        },
      ],
    },
    ColumnLineageDatasetFacet: {
      allOf: [
        { $ref: '#/$defs/BaseFacet' },
        {
          type: 'object',
          required: ['fields'],
          properties: {
            fields: {
              type: 'object',
              additionalProperties: {
                type: 'object',
                required: ['inputFields'],
                properties: {
                  inputFields: {
                    type: 'array',
                    minItems: 1,
                    items: {
                      type: 'object',
                      required: ['namespace', 'name', 'field'],
                      properties: {
                        namespace: { type: 'string' },
                        name: { type: 'string' },
                        field: { type: 'string' },
                        transformations: {
                          type: 'array',
                          items: {
                            type: 'object',
                            required: ['type'],
                            properties: {
                              type: { enum: ['DIRECT', 'INDIRECT'] },
                              subtype: { type: 'string' },
                              description: { type: 'string' },
                              masking: { type: 'boolean' },
                            },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      ],
    },
    OutputStatisticsOutputDatasetFacet: {
      allOf: [
        { $ref: '#/$defs/BaseFacet' },
        {
          type: 'object',
          properties: {
            rowCount: { type: 'integer', minimum: 0 },
            size: { type: 'integer', minimum: 0 },
            fileCount: { type: 'integer', minimum: 0 },
          },
        },
      ],
    },
    JobTypeJobFacet: {
      allOf: [
        { $ref: '#/$defs/BaseFacet' },
        {
          type: 'object',
          required: ['processingType', 'integration'],
          properties: {
            processingType: { enum: ['BATCH', 'STREAMING'] },
            integration: { type: 'string' },
            jobType: { type: 'string' },
          },
        },
      ],
    },
    ErrorMessageRunFacet: {
      allOf: [
        { $ref: '#/$defs/BaseFacet' },
        {
          type: 'object',
          required: ['message', 'programmingLanguage'],
          properties: {
            message: { type: 'string' },
            programmingLanguage: { type: 'string' },
            stackTrace: { type: 'string' },
          },
        },
      ],
    },
    SvcRunFacet: {
      allOf: [
        { $ref: '#/$defs/BaseFacet' },
        {
          type: 'object',
          required: ['kind', 'status', 'projectId'],
          properties: {
            kind: { type: 'string' },
            status: { type: 'string' },
            projectId: { type: 'string', format: 'uuid' },
            itemId: { type: 'string' },
          },
        },
      ],
    },
  },
};

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(runEventSchema);

/** The validation errors of an event, empty when it is a valid 2-0-2 RunEvent with valid facets. */
export function runEventErrors(event: unknown): string[] {
  if (validate(event)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}
