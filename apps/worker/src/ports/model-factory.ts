import { SecretBox, type EndpointRow } from '@looplane/db';
import type { ModelPort, ModelResult } from '@looplane/engine';
import { createModelForEndpoint } from '@looplane/models';
import { AppError } from '@looplane/shared';

/** Builds a model port for an endpoint row (injected in tests and benchmarks to observe calls). */
export type CreateModel = (endpoint: EndpointRow, apiKey: string | null) => ModelPort;

/**
 * Model ports per endpoint, cached until the row changes (ports are stateless: the faux model
 * answers by turn, the OpenAI client is shared). Keys are decrypted here, in the worker, only to
 * build the client; they never reach an event, a log line or a tool.
 */
export class ModelFactory {
  private readonly cache = new Map<string, { version: number; port: ModelPort }>();
  private readonly box: SecretBox | null;

  constructor(
    encryptionKey: string | undefined,
    private readonly create: CreateModel = createModelForEndpoint,
  ) {
    this.box = encryptionKey ? new SecretBox(encryptionKey) : null;
  }

  /** The model port for a session's endpoint; throws AppError when the run cannot use it. */
  forEndpoint(endpoint: EndpointRow | null): ModelPort {
    if (!endpoint) throw new AppError('PRECONDITION_FAILED', 'the run has no model endpoint');
    if (endpoint.deletedAt) throw new AppError('PRECONDITION_FAILED', `the model endpoint ${endpoint.name} was deleted`);
    const version = endpoint.updatedAt.getTime();
    const cached = this.cache.get(endpoint.id);
    if (cached?.version === version) return cached.port;
    const port = this.create(endpoint, this.apiKey(endpoint));
    this.cache.set(endpoint.id, { version, port });
    return port;
  }

  private apiKey(endpoint: EndpointRow): string | null {
    if (!endpoint.keyCiphertext) return null;
    if (!this.box) throw new AppError('PRECONDITION_FAILED', `this worker has no LOOPLANE_ENCRYPTION_KEY to open the key of endpoint ${endpoint.name}`);
    try {
      return this.box.open(endpoint.keyCiphertext);
    } catch {
      throw new AppError('PRECONDITION_FAILED', `the key of endpoint ${endpoint.name} cannot be opened with this worker's LOOPLANE_ENCRYPTION_KEY`);
    }
  }
}

/**
 * A model that answers every call with a non-retryable provider error. The engine records it as
 * `model.failed`, settles the budget and fails the run: how a run whose model cannot be reached
 * (deleted endpoint, wall-time budget spent) ends visibly, through the engine's own path.
 */
export function failingModel(code: 'bad_request' | 'timeout', message: string): ModelPort {
  const result: ModelResult = { ok: false, error: { code, message, retryable: false } };
  return { complete: async () => result };
}
