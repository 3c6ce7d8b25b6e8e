import Fastify from 'fastify';

// The ceiling of the HTTP stack: Fastify answering a constant JSON body, with no logger, nothing else. Run as its
// own process by the benchmark, which reads its CPU time apart.
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`BENCH_HELLO_READY ${url}\n`);
process.once('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
