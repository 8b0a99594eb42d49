'use strict';
// The throughput baseline: a bare Fastify route that inserts the same agent row into SQLite (WAL,
// synchronous=FULL like the service's event store), one transaction per request. No validation, no events.
const Database = require('better-sqlite3');
const Fastify = require('fastify');
const { randomUUID } = require('node:crypto');
const { join } = require('node:path');

const db = new Database(join(process.env.DATA_DIR, 'baseline.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec(`CREATE TABLE IF NOT EXISTS agents (
  id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, status TEXT NOT NULL, model TEXT NOT NULL,
  instructions TEXT NOT NULL, tools TEXT NOT NULL, created_at TEXT NOT NULL)`);
const insert = db.prepare('INSERT INTO agents VALUES (@id, @name, @status, @model, @instructions, @tools, @createdAt)');
const insertOne = db.transaction((row) => insert.run(row));

const app = Fastify({ bodyLimit: 1024 * 1024 });
app.get('/health', async () => ({ status: 'ok' }));
app.post('/v1/agents', async (request, reply) => {
  const { name, model, instructions = '', tools = [] } = request.body;
  const agent = {
    id: `agent_${randomUUID()}`,
    name,
    status: 'active',
    model,
    instructions,
    tools,
    createdAt: new Date().toISOString(),
  };
  insertOne({ ...agent, tools: JSON.stringify(tools) });
  reply.code(201).header('Location', `/v1/agents/${agent.id}`);
  return agent;
});
app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
