// Why: `--store dynamodb:<table>` must work from the CLI, the MCP server and library users alike.
// The scheme parses the spec and opens one driver; core's registry builds the store and both
// record backends on it (one client for all three).
import type { OpenStoreContext, SchemeContext, StoreScheme } from '@repomem/core';
import { RepomemError } from '@repomem/core';
import { diagnoseDynamoDb } from './diagnose.js';
import { openDynamoDbDriver } from './driver.js';

/** A parsed `dynamodb:` spec. */
export interface DynamoDbTarget {
  readonly table: string;
  readonly region?: string;
  readonly endpoint?: string;
}

/** `dynamodb:<table>[?region=<region>]`; the endpoint is `$AWS_ENDPOINT_URL_DYNAMODB` of the context when set. */
export const storeScheme: StoreScheme<DynamoDbTarget> = {
  scheme: 'dynamodb',
  grammar: 'dynamodb:<table>[?region=<region>]',
  parse(rest: string, context: SchemeContext): DynamoDbTarget {
    const [table = '', query = ''] = rest.split('?', 2);
    if (!/^[A-Za-z0-9_.-]{3,255}$/.test(table)) {
      throw new RepomemError('INVALID_ARGUMENT', 'a DynamoDB table name is 3 to 255 letters, digits, "_", "-" or "."');
    }
    const params = new URLSearchParams(query);
    for (const name of params.keys()) {
      if (name !== 'region') throw new RepomemError('INVALID_ARGUMENT', `unknown option ${JSON.stringify(name)}`);
    }
    const region = params.get('region') ?? undefined;
    const endpoint = context.env.AWS_ENDPOINT_URL_DYNAMODB;
    return {
      table,
      ...(region === undefined ? {} : { region }),
      ...(endpoint === undefined || endpoint === '' ? {} : { endpoint }),
    };
  },
  label: (target) => `dynamodb:${target.table}${target.region === undefined ? '' : `?region=${target.region}`}`,
  openDriver: (target: DynamoDbTarget, context: OpenStoreContext) =>
    openDynamoDbDriver({ ...target, repo: context.repo, create: !context.readOnly }),
  diagnose: diagnoseDynamoDb,
};
