// The baseline: a bare Fastify hello-world, nothing else (plain JS: runs exactly like the built server).
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.stdout.write(`${address}\n`);
