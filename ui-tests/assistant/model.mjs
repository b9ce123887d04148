#!/usr/bin/env node
/**
 * A scripted OpenAI-compatible model for the assistant tests.
 *
 *   node ui-tests/assistant/model.mjs PORT
 *
 * `POST /v1/chat/completions` logs the request body and answers, as a
 * streamed chat completion (server-sent events), with the next scripted turn
 * of the caller's session: a text, or tool calls (a `tool_calls` delta with
 * the tool's name and its JSON arguments). When the session has no turn
 * left, the request waits until the test adds one: a test that must build a
 * turn from the request (the cell id and hash a tool result returned) reads
 * the request from the log first, then adds the turn.
 *
 * Sessions keep parallel tests apart: the session is the request's
 * `x-scripted-model-session` header (each test's browser context sends its
 * own, see ui-tests/assistant.ts), or "default".
 *
 * The control API, for the tests (JSON):
 *   GET    /control/health                  200 once listening
 *   POST   /control/SESSION/turns           {turns: [turn, ...]} appended
 *   GET    /control/SESSION/log?count=N&timeout=MS
 *                                           {requests: [body, ...]} once the
 *                                           session has N requests (408 at
 *                                           the timeout)
 *   DELETE /control/SESSION                 forgets its turns and its log
 * A turn is {text: string} or {toolCalls: [{name, arguments: object}]}.
 *
 * Every response allows any origin, and preflight requests are answered.
 */
import http from 'node:http';

const port = Number(process.argv[2] ?? 0);
/** How long a completion request waits for a turn before it gives up. */
const TURN_TIMEOUT_MS = 120_000;
const SESSION_HEADER = 'x-scripted-model-session';

/** @type {Map<string, {turns: object[], log: object[], waiters: Set<() => void>}>} */
const sessions = new Map();

function session(name) {
  let found = sessions.get(name);
  if (!found) {
    found = { turns: [], log: [], waiters: new Set() };
    sessions.set(name, found);
  }
  return found;
}

function notify(state) {
  for (const wake of [...state.waiters]) {
    wake();
  }
}

/** Resolves when `ready()` holds for the session, or with false at the timeout. */
function waitFor(state, ready, timeoutMs) {
  if (ready()) {
    return Promise.resolve(true);
  }
  return new Promise(resolve => {
    const wake = () => {
      if (ready()) {
        clearTimeout(timer);
        state.waiters.delete(wake);
        resolve(true);
      }
    };
    const timer = setTimeout(() => {
      state.waiters.delete(wake);
      resolve(false);
    }, timeoutMs);
    state.waiters.add(wake);
  });
}

function cors(req, res) {
  res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
  res.setHeader(
    'Access-Control-Allow-Headers',
    req.headers['access-control-request-headers'] ?? '*'
  );
  res.setHeader('Access-Control-Max-Age', '600');
  res.setHeader('Vary', 'Origin');
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', chunk => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf-8')));
    req.on('error', reject);
  });
}

function json(res, status, value) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(value));
}

let serial = 0;

/** The chunks of one streamed completion for a turn. */
function chunksOf(turn, model) {
  const id = `chatcmpl-scripted-${++serial}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta, finish) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }]
  });
  const out = [chunk({ role: 'assistant', content: '' }, null)];
  let finish = 'stop';
  if (Array.isArray(turn.toolCalls) && turn.toolCalls.length) {
    finish = 'tool_calls';
    turn.toolCalls.forEach((call, index) => {
      out.push(
        chunk(
          {
            tool_calls: [
              {
                index,
                id: call.id ?? `call_scripted_${serial}_${index}`,
                type: 'function',
                function: {
                  name: call.name,
                  arguments: JSON.stringify(call.arguments ?? {})
                }
              }
            ]
          },
          null
        )
      );
    });
  } else {
    out.push(chunk({ content: String(turn.text ?? '') }, null));
  }
  out.push(chunk({}, finish));
  out.push({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
  });
  return out;
}

async function complete(req, res) {
  const name = String(req.headers[SESSION_HEADER] ?? 'default');
  const state = session(name);
  const text = await readBody(req);
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = { unparsed: text };
  }
  state.log.push(body);
  notify(state);
  const ready = await waitFor(
    state,
    () => state.turns.length > 0,
    TURN_TIMEOUT_MS
  );
  const turn = ready
    ? state.turns.shift()
    : { text: '(the scripted model had no turn left)' };
  // the caller gave up meanwhile (the request itself counts as destroyed
  // once its body is read, so ask the response)
  if (res.destroyed) {
    return;
  }
  if (body.stream === false) {
    const [first, ...rest] = chunksOf(turn, body.model ?? 'scripted');
    const toolCalls = rest.flatMap(c => c.choices[0]?.delta?.tool_calls ?? []);
    json(res, 200, {
      id: first.id,
      object: 'chat.completion',
      created: first.created,
      model: first.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: toolCalls.length ? null : String(turn.text ?? ''),
            ...(toolCalls.length ? { tool_calls: toolCalls } : {})
          },
          finish_reason: toolCalls.length ? 'tool_calls' : 'stop'
        }
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
    });
    return;
  }
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive'
  });
  for (const chunk of chunksOf(turn, body.model ?? 'scripted')) {
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  }
  res.end('data: [DONE]\n\n');
}

async function control(req, res, url) {
  const parts = url.pathname.split('/').filter(Boolean); // control, SESSION, what
  if (parts[1] === 'health') {
    return json(res, 200, { ok: true });
  }
  const name = decodeURIComponent(parts[1] ?? 'default');
  const state = session(name);
  if (req.method === 'DELETE' && parts.length === 2) {
    sessions.delete(name);
    notify(state);
    return json(res, 200, { ok: true });
  }
  if (req.method === 'POST' && parts[2] === 'turns') {
    const { turns } = JSON.parse(await readBody(req));
    state.turns.push(...turns);
    notify(state);
    return json(res, 200, { pending: state.turns.length });
  }
  if (req.method === 'GET' && parts[2] === 'log') {
    const count = Number(url.searchParams.get('count') ?? 0);
    const timeout = Number(url.searchParams.get('timeout') ?? 0);
    const ok = await waitFor(state, () => state.log.length >= count, timeout);
    return json(res, ok ? 200 : 408, {
      requests: state.log,
      pending: state.turns.length
    });
  }
  return json(res, 404, { error: `no control ${req.method} ${url.pathname}` });
}

const server = http.createServer((req, res) => {
  cors(req, res);
  if (req.method === 'OPTIONS') {
    res.writeHead(204);
    res.end();
    return;
  }
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const handle = url.pathname.startsWith('/control/')
    ? control(req, res, url)
    : req.method === 'POST' && url.pathname.endsWith('/chat/completions')
      ? complete(req, res)
      : Promise.resolve(
          json(res, 404, {
            error: `not scripted: ${req.method} ${url.pathname}`
          })
        );
  handle.catch(error => {
    if (!res.headersSent) {
      json(res, 500, { error: String(error) });
    } else {
      res.end();
    }
  });
});

server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  process.stderr.write(
    `[scripted model] listening on http://127.0.0.1:${address.port}/v1\n`
  );
});

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    server.close();
    server.closeAllConnections?.();
    process.exit(0);
  });
}
