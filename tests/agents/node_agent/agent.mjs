#!/usr/bin/env node
// A small ACP agent written on the official TypeScript SDK (@agentclientprotocol/sdk, pinned 2.4.0).
// ClawQt's integration tests run it as an implementation independent of the Python SDK.
//
// SDK 2.x removed `AgentSideConnection`; the agent side is the app builder:
// `acp.agent().onRequest(method, handler).onNotification(...).connect(ndJsonStream(stdout, stdin))`.
// Registering an `initialize` handler makes the SDK refuse every other request (-32600) until
// `initialize` has been answered.
//
// Behaviour of `session/prompt` (by the prompt's text):
//   "permission"        -> tool_call (execute, pending), session/request_permission with
//                          allow_once / reject_once, then a chunk "allowed" | "rejected" | "cancelled"
//                          and a tool_call_update completed | failed.
//   "question"          -> elicitation/create (form mode: a colour to choose, a count, a yes/no), then a
//                          chunk "answer: <the JSON result>" (or "question failed: <message>").
//   contains "slow"     -> a chunk every 50 ms for up to 10 s; session/cancel stops it promptly and the
//                          turn ends with stopReason "cancelled".
//   anything else       -> "node says: <text>" in several agent_message_chunk pieces, then end_turn.
// stdout carries only JSON-RPC; every log line goes to stderr.

import { randomUUID } from "node:crypto";
import { Readable, Writable } from "node:stream";

import * as acp from "@agentclientprotocol/sdk";

const AGENT_NAME = "node-sdk-test-agent";
const SLOW_TICK_MS = 50;
const SLOW_LIMIT_MS = 10_000;
const PIECE_CHARS = 4;

function log(...parts) {
  process.stderr.write(`[${AGENT_NAME}] ${parts.join(" ")}\n`);
}
// Nothing but protocol messages may reach stdout.
console.log = console.info = console.debug = (...parts) => log(...parts);

/** sessionId -> { turn: Turn | null } */
const sessions = new Map();

/** One running prompt turn: cancelled by session/cancel (or the request's own abort signal). */
class Turn {
  constructor(signal) {
    this.cancelled = false;
    this.waiters = new Set();
    if (signal) {
      if (signal.aborted) this.cancel();
      else signal.addEventListener("abort", () => this.cancel(), { once: true });
    }
  }

  cancel() {
    if (this.cancelled) return;
    this.cancelled = true;
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  /** Sleep `ms`, waking early on cancel. */
  sleep(ms) {
    if (this.cancelled) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.waiters.add(wake);
    });
  }
}

function promptText(blocks) {
  return (blocks ?? [])
    .filter((block) => block.type === "text" && typeof block.text === "string")
    .map((block) => block.text)
    .join("\n")
    .trim();
}

function pieces(text, size = PIECE_CHARS) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [""];
}

function sendUpdate(client, sessionId, update) {
  return client.notify(acp.methods.client.session.update, { sessionId, update });
}

function sendText(client, sessionId, text) {
  return sendUpdate(client, sessionId, {
    sessionUpdate: "agent_message_chunk",
    content: { type: "text", text },
  });
}

let toolCounter = 0;

async function runPermission(client, sessionId, turn) {
  toolCounter += 1;
  const toolCallId = `node-tool-${toolCounter}`;
  const title = "Run `echo permission`";
  await sendUpdate(client, sessionId, {
    sessionUpdate: "tool_call",
    toolCallId,
    title,
    kind: "execute",
    status: "pending",
    rawInput: { command: "echo permission" },
  });
  let outcome;
  try {
    const response = await client.request(acp.methods.client.session.requestPermission, {
      sessionId,
      toolCall: { toolCallId, title, kind: "execute", status: "pending" },
      options: [
        { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
        { optionId: "reject_once", name: "Reject", kind: "reject_once" },
      ],
    });
    outcome = response.outcome;
  } catch (error) {
    log("session/request_permission failed:", error?.message ?? String(error));
    outcome = { outcome: "cancelled" };
  }
  let word;
  if (turn.cancelled || outcome?.outcome !== "selected") word = "cancelled";
  else if (outcome.optionId === "allow_once") word = "allowed";
  else word = "rejected";
  log(`permission for ${toolCallId}: ${word}`);
  await sendText(client, sessionId, word);
  await sendUpdate(client, sessionId, {
    sessionUpdate: "tool_call_update",
    toolCallId,
    status: word === "allowed" ? "completed" : "failed",
    content: [{ type: "content", content: { type: "text", text: word } }],
  });
  return word === "cancelled" ? "cancelled" : "end_turn";
}

async function runQuestion(client, sessionId) {
  let said;
  try {
    const result = await client.request(acp.methods.client.elicitation.create, {
      sessionId,
      mode: "form",
      message: "Pick a colour for the build badge",
      requestedSchema: {
        type: "object",
        properties: {
          colour: { type: "string", title: "Colour", enum: ["green", "blue"] },
          count: { type: "integer", title: "How many", minimum: 1, maximum: 3 },
          loud: { type: "boolean", title: "Loud", default: false },
        },
        required: ["colour"],
      },
    });
    said = `answer: ${JSON.stringify(result)}`;
  } catch (error) {
    said = `question failed: ${error?.message ?? String(error)}`;
  }
  log(said);
  await sendText(client, sessionId, said);
  return "end_turn";
}

async function runSlow(client, sessionId, turn) {
  const started = Date.now();
  let tick = 0;
  while (!turn.cancelled && Date.now() - started < SLOW_LIMIT_MS) {
    await sendText(client, sessionId, `tick ${tick} `);
    tick += 1;
    await turn.sleep(SLOW_TICK_MS); // the agent's pace
  }
  log(`slow turn ended after ${tick} chunks (${turn.cancelled ? "cancelled" : "time limit"})`);
  return turn.cancelled ? "cancelled" : "end_turn";
}

async function runEcho(client, sessionId, text, turn) {
  for (const piece of pieces(`node says: ${text}`)) {
    if (turn.cancelled) return "cancelled";
    await sendText(client, sessionId, piece);
  }
  return turn.cancelled ? "cancelled" : "end_turn";
}

const app = acp
  .agent({ name: AGENT_NAME })
  .onRequest(acp.methods.agent.initialize, ({ params }) => {
    log(`initialize from ${params.clientInfo?.name ?? "unknown client"} (protocol ${params.protocolVersion})`);
    return {
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: false,
        promptCapabilities: { image: false, audio: false, embeddedContext: false },
      },
      agentInfo: { name: AGENT_NAME, title: "Node SDK test agent", version: "0.1.0" },
      authMethods: [],
    };
  })
  .onRequest(acp.methods.agent.session.new, ({ params }) => {
    const sessionId = `node-${randomUUID()}`;
    sessions.set(sessionId, { cwd: params.cwd, turn: null });
    log(`session/new ${sessionId} in ${params.cwd}`);
    return { sessionId };
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client, signal }) => {
    const session = sessions.get(params.sessionId);
    if (!session) throw acp.RequestError.sessionNotFound(params.sessionId);
    if (session.turn) throw acp.RequestError.invalidRequest(null, "a turn is already running");
    const turn = new Turn(signal);
    session.turn = turn;
    const text = promptText(params.prompt);
    log(`session/prompt ${params.sessionId}: ${JSON.stringify(text)}`);
    try {
      let stopReason;
      if (text === "permission") stopReason = await runPermission(client, params.sessionId, turn);
      else if (text === "question") stopReason = await runQuestion(client, params.sessionId);
      else if (text.includes("slow")) stopReason = await runSlow(client, params.sessionId, turn);
      else stopReason = await runEcho(client, params.sessionId, text, turn);
      log(`session/prompt ${params.sessionId} -> ${stopReason}`);
      return { stopReason };
    } finally {
      session.turn = null;
    }
  })
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    const turn = sessions.get(params.sessionId)?.turn;
    log(`session/cancel ${params.sessionId}${turn ? "" : " (no running turn)"}`);
    turn?.cancel();
  });

const stream = acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin));
const connection = app.connect(stream);
log(`ready (pid ${process.pid}, node ${process.version})`);
connection.closed.then(
  () => {
    log("connection closed; exiting");
    process.exit(0);
  },
  (error) => {
    log("connection failed:", error?.message ?? String(error));
    process.exit(1);
  },
);
