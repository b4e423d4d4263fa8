// Interop test with the official TypeScript SDK 1.x client
// (@modelcontextprotocol/sdk 1.32), the one most desktop hosts embed. It
// speaks 2025-11-25 only, and once it has listed the tools it checks the
// structuredContent of EVERY result against the tool's output schema,
// isError results included, failing the call with -32602 when it does not
// match: the user would never see the server's message. So every path of
// every tool runs here (paths.mjs), over stdio and streamable HTTP, each call
// after listTools, and each must come back as a result, not a thrown error.
//
//   cd interop && npm ci && npm test
//   FLIGHTSERVER_BIN=/path/to/flightserver npm test   # skip the go build

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

// The 1.x SDK's own entry points; the 2.x client (interop.test.mjs) exports
// a Client and transports of the same names from other packages.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

import {
  DATE,
  LEGACY,
  REQUEST_TIMEOUT_MS,
  STEP_TIMEOUT_MS,
  TRANSPORTS,
  launchServer,
  serverBinary,
  settleGETStream,
} from './harness.mjs';
import { describeToolPaths } from './paths.mjs';

const ERA = LEGACY;
const server = serverBinary();

// open connects a 1.x client declaring what the profile declares to a fresh
// server, and lists the tools: from then on callTool validates every result.
// `validations` records each check the client made (valid or not), and
// `negotiated` the protocol version it agreed to.
async function open(
  transportKind,
  era,
  { sampling, samplingCapability = {}, elicitation, elicitationCapability = { form: {} }, roots, serverArgs = [] } = {},
) {
  assert.equal(era, ERA, 'the 1.x client speaks 2025-11-25 only');
  const launched = await launchServer(server.path, transportKind, serverArgs);
  const transport = launched.stdio ? new StdioClientTransport(launched.stdio) : new StreamableHTTPClientTransport(launched.url);
  const session = { validations: [], negotiated: undefined };
  // The client tells a transport that has this method which version it
  // negotiated (HTTP sends it as a header); stdio has none, so add one.
  const setVersion = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (version) => {
    session.negotiated = version;
    setVersion?.(version);
  };

  // The client's default validator, recording what it decides.
  const ajv = new AjvJsonSchemaValidator();
  const jsonSchemaValidator = {
    getValidator: (schema) => {
      const validate = ajv.getValidator(schema);
      return (data) => {
        const verdict = validate(data);
        session.validations.push(verdict.valid);
        return verdict;
      };
    },
  };
  const capabilities = {
    ...(sampling && { sampling: samplingCapability }),
    ...(elicitation && { elicitation: elicitationCapability }),
    ...(roots && { roots: { listChanged: true } }),
  };
  const client = new Client({ name: 'flightserver-interop-v1', version: '1.0.0' }, { capabilities, jsonSchemaValidator });
  if (sampling) client.setRequestHandler(CreateMessageRequestSchema, sampling);
  if (elicitation) client.setRequestHandler(ElicitRequestSchema, elicitation);
  if (roots) client.setRequestHandler(ListRootsRequestSchema, roots);

  session.close = async () => {
    await client.close();
    await launched.stop();
  };
  try {
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
    session.tools = (await client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS })).tools;
    await settleGETStream(transportKind, era);
  } catch (err) {
    await session.close().catch(() => {}); // the connect error is the one to report
    throw err;
  }
  session.client = client;
  session.call = (name, args, params) =>
    client.callTool({ name, arguments: args, ...params }, undefined, { timeout: REQUEST_TIMEOUT_MS });
  session.listTools = async () => {
    const listed = await client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS });
    session.tools = listed.tools;
    return listed;
  };
  return session;
}

for (const transport of TRANSPORTS) {
  describeToolPaths({ sdk: 'SDK 1.32', transport, era: ERA, open });

  // What makes the table above mean something: this client really checks
  // results against the schemas it listed, and the error shape the server
  // used to send (issue 13) is one it rejects.
  describe(`SDK 1.32, ${transport}: the client validates what it accepts`, { timeout: 60_000 }, () => {
    test('negotiates 2025-11-25, and validates a success against the output schema', { timeout: STEP_TIMEOUT_MS }, async () => {
      const s = await open(transport, ERA);
      try {
        assert.equal(s.negotiated, ERA);
        const result = await s.call('findBestFlight', { origin: 'JFK', destination: 'LHR', date: DATE });
        assert.notEqual(result.isError, true, JSON.stringify(result));
        assert.deepEqual(s.validations, [true], 'one check of structuredContent, which passed');

        const error = await s.call('findBestFlight', { destination: 'LHR' });
        assert.equal(error.isError, true, JSON.stringify(error));
        assert.deepEqual(s.validations, [true], 'an error without structuredContent is not checked');
      } finally {
        await s.close();
      }
    });

    test('would reject an error carried in structuredContent', { timeout: STEP_TIMEOUT_MS }, async () => {
      const s = await open(transport, ERA);
      try {
        const schema = s.tools.find((t) => t.name === 'findBestFlight').outputSchema;
        const oldShape = { error: 'trip_details_needed', askedUser: false, why: 'client_cannot_ask', fields: [] };
        assert.equal(new AjvJsonSchemaValidator().getValidator(schema)(oldShape).valid, false);
      } finally {
        await s.close();
      }
    });
  });
}
