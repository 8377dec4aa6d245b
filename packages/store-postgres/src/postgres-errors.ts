// Why: driver errors carry SQLSTATE codes and socket error names, not repomem's stable codes,
// and a raw one says neither which server nor what to do. Every error leaving this package is a
// RepomemError naming host, port, database and user (never the password, never the driver's
// stack), and this is also where "may the whole transaction run again?" is decided once.
import { RepomemError } from '@repomem/core';
import type { PostgresIdentity } from './connection-options.js';
import { describeIdentity } from './connection-options.js';

/** SQLSTATE codes after which re-running the whole transaction is safe and may succeed. */
const RETRYABLE_STATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '57P01', // admin_shutdown (pg_terminate_backend, fast shutdown)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up)
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '08P01', // protocol_violation (a pooler dropping its server connection)
  '53300', // too_many_connections
  '25P03', // idle_in_transaction_session_timeout
]);

const RETRYABLE_SOCKET = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'EHOSTUNREACH']);

interface DriverError {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly routine?: unknown;
}

function fieldsOf(error: unknown): DriverError {
  return error !== null && typeof error === 'object' ? (error as DriverError) : {};
}

/** True when `error` says the connection was lost (the server may or may not have committed). */
export function isConnectionLoss(error: unknown): boolean {
  const { code, message } = fieldsOf(error);
  if (typeof code === 'string' && (RETRYABLE_SOCKET.has(code) || code.startsWith('08') || code.startsWith('57P'))) {
    return true;
  }
  return (
    typeof message === 'string' &&
    /Connection terminated|connection is closed|not queryable|Connection ended|server closed the connection/i.test(
      message,
    )
  );
}

/** True when the whole transaction may safely run again (the server rolled it back, or never got it). */
export function isRetryable(error: unknown): boolean {
  if (error instanceof RepomemError) return false;
  const { code } = fieldsOf(error);
  if (typeof code === 'string' && RETRYABLE_STATES.has(code)) return true;
  return isConnectionLoss(error);
}

/** Where a message says the failure happened. */
function where(identity: PostgresIdentity): string {
  return `PostgreSQL at ${identity.host}:${identity.port} (database ${JSON.stringify(identity.database)}, user ${JSON.stringify(identity.user)})`;
}

/**
 * `error` as a RepomemError naming the server (`action` says what was being done). RepomemErrors
 * pass through. No driver error is attached as `cause`, so no stack or connection detail leaks.
 */
export function translatePostgresError(error: unknown, identity: PostgresIdentity, action: string): RepomemError {
  if (error instanceof RepomemError) return error;
  const { code, message } = fieldsOf(error);
  const text = typeof message === 'string' ? message : String(error);
  const details = { ...identity, ...(typeof code === 'string' ? { sqlState: code } : {}) };
  const at = where(identity);
  switch (code) {
    case '28P01':
    case '28000':
      return new RepomemError(
        'BACKEND_UNAVAILABLE',
        `${at} refused authentication while ${action}: check the user name and password (${describeIdentity(identity)})`,
        { details },
      );
    case '3D000':
      return new RepomemError(
        'NOT_FOUND',
        `${at}: the database ${JSON.stringify(identity.database)} does not exist (create it with createdb, or name another in the connection URL)`,
        { details },
      );
    case '42501':
      // A privilege or a row-level-security policy said no: the same request will be refused
      // again, so this is never retried (nor classified as an outage).
      return new RepomemError(
        'PERMISSION_DENIED',
        `${at} refused ${action}: ${text} (${/row-level security/i.test(text) ? "the user has no row-level security grant for this repository: repomem postgres policies --role <user> --grant <owner/name> --apply, run by the tables' owner" : 'grant the user the privileges named in the @repomem/store-postgres README'})`,
        { details },
      );
    case '57014':
      return new RepomemError(
        'LOCK_TIMEOUT',
        `${at}: ${action} was cancelled by the statement timeout (${text}); raise statementTimeoutMs or look for a long-running transaction holding locks`,
        { details },
      );
    case '55P03':
      return new RepomemError('LOCK_TIMEOUT', `${at}: ${action} could not take a lock in time (${text})`, {
        details,
      });
    case '3F000':
      return new RepomemError('NOT_FOUND', `${at}: ${text} while ${action}`, { details });
    default:
      break;
  }
  if (typeof code === 'string' && RETRYABLE_SOCKET.has(code)) {
    return new RepomemError(
      'BACKEND_UNAVAILABLE',
      `cannot reach ${at} while ${action}: ${code === 'ECONNREFUSED' ? 'connection refused (is the server running and listening there?)' : code}`,
      { details },
    );
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new RepomemError('BACKEND_UNAVAILABLE', `cannot reach ${at}: the host name does not resolve`, { details });
  }
  if (isConnectionLoss(error) || /timeout/i.test(text)) {
    return new RepomemError('BACKEND_UNAVAILABLE', `lost the connection to ${at} while ${action}: ${text}`, {
      details,
    });
  }
  return new RepomemError('BACKEND_UNAVAILABLE', `${at} failed while ${action}: ${text}`, { details });
}
