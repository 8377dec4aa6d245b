// Why: the service model travels bundled inside this module's build; its Apache-2.0 notice must
// travel with it, so the notice is code (kept by the bundler as a legal comment and exported) as
// well as the NOTICE file beside the JSON in the source tree.

/*!
 * agentcore-memory-model.json: the memory data-plane part of the Amazon Bedrock AgentCore service
 * model (API version 2024-02-28). Copyright Amazon.com, Inc. or its affiliates. All Rights
 * Reserved. Licensed under the Apache License, Version 2.0: http://www.apache.org/licenses/LICENSE-2.0
 */

/** Licence notice of the bundled AgentCore service model (Apache-2.0), as in its NOTICE file. */
export const AGENTCORE_MODEL_NOTICE = [
  'agentcore-memory-model.json: the memory data-plane part of the Amazon Bedrock AgentCore service',
  'model (API version 2024-02-28, service id "Bedrock AgentCore"), as AWS publishes it with its SDKs,',
  'with its documentation strings removed and only the /memories/... operations and their shapes kept.',
  'Copyright Amazon.com, Inc. or its affiliates. All Rights Reserved.',
  'Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in',
  'compliance with the License. A copy of the License is at http://www.apache.org/licenses/LICENSE-2.0.',
  'It is distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express',
  'or implied. See the License for the specific language governing permissions and limitations.',
].join('\n');
