// Why: handlers read request members after the model validated them; these are the wire forms
// (timestamps as epoch seconds, unions as one-member objects) of the few shapes the handlers
// inspect, named after the model's shapes. Everything else is passed through as validated JSON.

/** `MetadataValue` on events: `{ stringValue }`. */
export interface EventMetadataValue {
  readonly stringValue?: string;
}

/** `MemoryRecordMetadataValue`: exactly one of the four members. */
export interface RecordMetadataValue {
  readonly stringValue?: string;
  readonly numberValue?: number;
  readonly dateTimeValue?: number;
  readonly stringListValue?: readonly string[];
}

/** `Branch`. */
export interface BranchWire {
  readonly name: string;
  readonly rootEventId?: string;
}

/** `EventMetadataFilterExpression`. */
export interface EventMetadataFilterWire {
  readonly left: { readonly metadataKey?: string };
  readonly operator: 'EQUALS_TO' | 'EXISTS' | 'NOT_EXISTS';
  readonly right?: { readonly metadataValue?: EventMetadataValue };
}

/** `MemoryMetadataFilterExpression`. */
export interface RecordMetadataFilterWire {
  readonly left: { readonly metadataKey?: string };
  readonly operator:
    | 'EQUALS_TO'
    | 'EXISTS'
    | 'NOT_EXISTS'
    | 'BEFORE'
    | 'AFTER'
    | 'CONTAINS'
    | 'GREATER_THAN'
    | 'GREATER_THAN_OR_EQUALS'
    | 'LESS_THAN'
    | 'LESS_THAN_OR_EQUALS';
  readonly right?: { readonly metadataValue?: RecordMetadataValue };
}

/** `CreateEventInput` (body and label members). */
export interface CreateEventWire {
  readonly memoryId: string;
  readonly actorId: string;
  readonly sessionId?: string;
  readonly eventTimestamp: number;
  readonly payload: readonly unknown[];
  readonly branch?: BranchWire;
  readonly metadata?: Readonly<Record<string, EventMetadataValue>>;
  readonly clientToken?: string;
}

/** `IngestDataInput`. */
export interface IngestDataWire {
  readonly actorId: string;
  readonly sessionId?: string;
  readonly contentTimestamp: number;
  readonly source: { readonly inline?: { readonly payload: readonly unknown[] } };
  readonly metadata?: Readonly<Record<string, EventMetadataValue>>;
  readonly clientToken?: string;
}

/** Label members of GetEvent / DeleteEvent. */
export interface EventAddressWire {
  readonly actorId: string;
  readonly sessionId: string;
  readonly eventId: string;
}

/** `ListEventsInput`. */
export interface ListEventsWire {
  readonly actorId: string;
  readonly sessionId: string;
  readonly includePayloads?: boolean;
  readonly filter?: {
    readonly branch?: { readonly name: string; readonly includeParentBranches?: boolean };
    readonly eventMetadata?: readonly EventMetadataFilterWire[];
  };
  readonly maxResults?: number;
  readonly nextToken?: string;
}

/** `ListSessionsInput`. */
export interface ListSessionsWire {
  readonly actorId: string;
  readonly filter?: { readonly eventFilter?: 'HAS_EVENTS' };
  readonly maxResults?: number;
  readonly nextToken?: string;
}

/** Paging members shared by list operations. */
export interface PagingWire {
  readonly maxResults?: number;
  readonly nextToken?: string;
}

/** `MemoryRecordCreateInput`. */
export interface RecordCreateWire {
  readonly requestIdentifier: string;
  readonly namespaces: readonly string[];
  readonly content: { readonly text?: string };
  readonly timestamp: number;
  readonly memoryStrategyId?: string;
  readonly metadata?: Readonly<Record<string, RecordMetadataValue>>;
}

/** `MemoryRecordUpdateInput`. */
export interface RecordUpdateWire {
  readonly memoryRecordId: string;
  readonly timestamp: number;
  readonly content?: { readonly text?: string };
  readonly namespaces?: readonly string[];
  readonly sourceNamespaces?: readonly string[];
  readonly memoryStrategyId?: string;
  readonly metadata?: Readonly<Record<string, RecordMetadataValue>>;
}

/** `MemoryRecordDeleteInput`. */
export interface RecordDeleteWire {
  readonly memoryRecordId: string;
  readonly namespace?: string;
}

/** `ListMemoryRecordsInput`. */
export interface ListRecordsWire extends PagingWire {
  readonly namespace?: string;
  readonly namespacePath?: string;
  readonly memoryStrategyId?: string;
  readonly metadataFilters?: readonly RecordMetadataFilterWire[];
}

/** `RetrieveMemoryRecordsInput`. */
export interface RetrieveRecordsWire extends PagingWire {
  readonly namespace?: string;
  readonly namespacePath?: string;
  readonly searchCriteria: {
    readonly searchQuery: string;
    readonly topK?: number;
    readonly memoryStrategyId?: string;
    readonly metadataFilters?: readonly RecordMetadataFilterWire[];
  };
}

/** `ListMemoryExtractionJobsInput`. */
export interface ListExtractionJobsWire extends PagingWire {
  readonly filter?: {
    readonly actorId?: string;
    readonly sessionId?: string;
    readonly status?: string;
    readonly strategyId?: string;
  };
}
