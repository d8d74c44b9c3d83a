/**
 * `createInformers()`: shared informers, one watch per (resource, namespace, selectors).
 *
 * @module
 */
import { type Observable, share, tap } from "../deps.ts";
import { type LogFields, type Logger, silentLogger } from "../core/logger.ts";
import type { KubeObject } from "../core/object.ts";
import { formatLabelSelector } from "../core/label_selector.ts";
import { formatFieldSelector } from "../core/field_selector.ts";
import type { Client, ResourceSpec } from "../client/client_types.ts";
import { apiVersionOf } from "../client/api_resource.ts";
import { listWatch, type ListWatchOptions } from "../watch/list_watch.ts";
import { createStore, type StoreReader } from "../store/create_store.ts";
import { reflect } from "../store/reflect.ts";
import type { Delta } from "../store/delta.ts";
import type { DeepReadonly } from "../core/deep_readonly.ts";
import type { HasMetadata } from "../core/has_metadata.ts";
import type { Indexer } from "../store/indexer.ts";

/** One shared informer: the deltas of one resource in one scope, and its store. */
export interface Informer<T> {
  /** `group/version/Kind ns=... labels=... fields=...`: what identifies this informer. */
  readonly key: string;
  /**
   * Hot, shared deltas. The first subscriber starts the list and watch; the last one to
   * unsubscribe stops them (the store keeps its contents; a later subscriber relists and gets
   * the differences). Late subscribers see only later deltas: read `store` for the rest.
   */
  readonly deltas$: Observable<Delta<DeepReadonly<T>>>;
  /** The informer's indexed store (filled while `deltas$` is subscribed). */
  readonly store: StoreReader<T>;
  /** Emits once and completes when the first list has been applied. */
  readonly synced$: Observable<void>;
  /** Whether the first list has been applied. */
  hasSynced(): boolean;
  /**
   * Why the informer is not (or no longer) in step with the server: the last warning or error
   * of its list and watch (an unknown kind, a 403, a dead server), cleared by the next
   * successful list. Undefined while all is well.
   */
  lastError(): string | undefined;
}

/**
 * Options of {@link InformerFactory.informer}. Indexers of later requests are added to the
 * shared store; a later request's transform must be the same function as the first's (or the
 * request throws), so no reader silently gets objects shaped for another.
 */
export interface InformerOptions<K, T>
  extends Omit<ListWatchOptions, "scheduler" | "logger" | "random"> {
  /** Named indexes of the store. */
  readonly indexers?: Readonly<Record<string, Indexer<DeepReadonly<T>>>>;
  /** Applied to each object before it is stored, e.g. `stripManagedFields`. */
  readonly transform?: (object: K) => T;
}

/** Hands out shared informers. */
export interface InformerFactory {
  /** The informer of `resource` in the scope of `options`, created on first request. */
  informer<T extends HasMetadata = KubeObject, K extends HasMetadata = T>(
    resource: ResourceSpec,
    options?: InformerOptions<K, T>,
  ): Informer<T>;
  /** Informers created so far. */
  readonly size: number;
}

/** Options of {@link createInformers}: passed to every `listWatch`. */
export type InformersOptions = Pick<
  ListWatchOptions,
  "scheduler" | "logger" | "random" | "backoff"
>;

/**
 * Creates an informer factory over `client`: one informer (one list, one watch, one store)
 * per resource, namespace, label selector and field selector, however many subscribers.
 *
 * Like client-go's `SharedInformerFactory`, but lazy and reference-counted: an informer
 * watches only while its `deltas$` has subscribers. Indexers of later requests are added to
 * the shared store (an existing name is kept); asking again with a different transform (or
 * none after one, or one after none) throws, naming the informer.
 *
 * @example
 * ```ts
 * import { byNamespace, createClient, createInformers } from "../../mod.ts";
 * const client = createClient({
 *   server: "http://127.0.0.1:1", namespace: "default", tls: { insecureSkipVerify: false }, auth: { type: "none" },
 * });
 * const factory = createInformers(client);
 * const pods = factory.informer({ apiVersion: "v1", kind: "Pod" }, { indexers: { namespace: byNamespace } });
 * factory.informer({ apiVersion: "v1", kind: "Pod" }) === pods; // true
 * ```
 */
export function createInformers(client: Client, options: InformersOptions = {}): InformerFactory {
  const cache = new Map<
    string,
    {
      informer: Informer<unknown>;
      writer: { addIndexers(i: never): void };
      transform: unknown;
    }
  >();
  return {
    informer<T extends HasMetadata = KubeObject, K extends HasMetadata = T>(
      resource: ResourceSpec,
      o: InformerOptions<K, T> = {},
    ): Informer<T> {
      const key = informerKey(resource, o);
      const found = cache.get(key);
      if (found !== undefined) {
        if (found.transform !== o.transform) {
          throw new Error(
            `Cannot share the informer ${key}: it was created ${
              found.transform ? "with another transform" : "without a transform"
            }, and this request ${o.transform ? "passes a different one" : "passes none"}; ` +
              "pass the same transform function (e.g. the manager's defaultTransform) everywhere",
          );
        }
        // Later readers may need more indexes than the first one asked for.
        if (o.indexers) found.writer.addIndexers(o.indexers as never);
        return found.informer as Informer<T>;
      }
      const { indexers, transform, ...watchOptions } = o;
      let lastError: string | undefined;
      const base = options.logger ?? silentLogger;
      const note = (level: "warn" | "error") => (message: string, fields?: LogFields) => {
        const error = fields?.error;
        lastError = `${message}${error !== undefined ? `: ${error}` : ""}`;
        base[level](message, { informer: key, ...fields });
      };
      const logger: Logger = { ...base, warn: note("warn"), error: note("error") };
      const { reader, writer } = createStore<T, K>({
        ...(indexers ? { indexers } : {}),
        ...(transform ? { transform } : {}),
      });
      const deltas$ = listWatch<K>(client, resource, { ...options, ...watchOptions, logger }).pipe(
        tap((e) => {
          if (e.type === "InitDone") lastError = undefined;
        }),
        reflect(writer),
        share(),
      );
      const made: Informer<T> = {
        key,
        deltas$,
        store: reader,
        synced$: reader.synced$,
        hasSynced: () => reader.hasSynced(),
        lastError: () => lastError,
      };
      cache.set(key, { informer: made as Informer<unknown>, writer: writer as never, transform });
      return made;
    },
    get size() {
      return cache.size;
    },
  };
}

function informerKey(resource: ResourceSpec, o: ListWatchOptions): string {
  const apiVersion = "plural" in resource ? apiVersionOf(resource) : resource.apiVersion;
  const ls = o.labelSelector === undefined
    ? ""
    : typeof o.labelSelector === "string"
    ? o.labelSelector
    : formatLabelSelector(o.labelSelector);
  const fs = o.fieldSelector === undefined
    ? ""
    : typeof o.fieldSelector === "string"
    ? o.fieldSelector
    : formatFieldSelector(o.fieldSelector);
  const meta = o.metadataOnly ? " metadata-only" : "";
  return `${apiVersion}/${resource.kind} ns=${o.namespace ?? ""} labels=${ls} fields=${fs}${meta}`;
}
