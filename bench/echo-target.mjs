// The invoke target of the benches, in a process of its own as a real agent's endpoint is (so that a request sent to
// it directly crosses the same process boundary as one the router forwards). Answers every request 200 with its JSON
// body echoed back and counts them per path; GET /__hits answers the counts. Prints {"port":N} once listening.
import { createServer } from 'node:http';

const counts = {};
const server = createServer((request, response) => {
  const urlPath = (request.url ?? '/').split('?')[0];
  if (urlPath === '/__hits') {
    const body = JSON.stringify(counts);
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    response.end(body);
    return;
  }
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    counts[urlPath] = (counts[urlPath] ?? 0) + 1;
    const text = Buffer.concat(chunks).toString('utf8');
    let echo = null;
    try {
      echo = text ? JSON.parse(text) : null;
    } catch {
      echo = text;
    }
    const body = JSON.stringify({ echo });
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
// Ends with the bench that started it.
process.on('disconnect', () => process.exit(0));
