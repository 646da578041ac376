// A custom handler for tests: records every request exactly as received (headers, framing, raw body) as one JSON
// line in RECORD_FILE, and answers as SCRIPT_FILE says for the function (re-read on every request, so a test can
// change the behaviour while devhost runs). Script per function name:
//   {"mode": "ok" | "fail" | "exitOnce" | "hang" | "empty" | "text", "status": 200, "outputs": {...},
//    "returnValue": ..., "logs": ["..."], "delayMs": 0}
// "exitOnce": the first request kills the process (a marker file stops it happening again after the restart).
'use strict';
const http = require('http');
const fs = require('fs');

const port = Number(process.env.FUNCTIONS_CUSTOMHANDLER_PORT);
const recordFile = process.env.RECORD_FILE;
const scriptFile = process.env.SCRIPT_FILE;

function script(name) {
  const all = JSON.parse(fs.readFileSync(scriptFile, 'utf8'));
  return all[name] || all['*'] || { mode: 'ok' };
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('ready');
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const name = decodeURIComponent(req.url.slice(1));
    const s = script(name);
    fs.appendFileSync(recordFile, JSON.stringify({
      pid: process.pid,
      method: req.method,
      url: req.url,
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      body: Buffer.concat(chunks).toString('utf8'),
      env: { port: process.env.FUNCTIONS_CUSTOMHANDLER_PORT, workerId: process.env.FUNCTIONS_CUSTOMHANDLER_WORKER_ID,
             httpWorkerPort: process.env.FUNCTIONS_HTTPWORKER_PORT, appRoot: process.env.FUNCTIONS_APP_ROOT_PATH,
             fromValues: process.env.TEST_VALUE, runtime: process.env.FUNCTIONS_WORKER_RUNTIME },
    }) + '\n');
    const answer = () => {
      switch (s.mode) {
        case 'exitOnce': {
          const marker = scriptFile + '.exited';
          if (!fs.existsSync(marker)) {
            fs.writeFileSync(marker, 'x');
            process.exit(3);
          }
          break;
        }
        case 'hang':
          return; // never answers
        case 'empty':
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end();
          return;
        case 'text':
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          res.end('{"Outputs":{}}');
          return;
        case 'fail':
          res.writeHead(s.status || 500, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ Outputs: s.outputs || {}, Logs: s.logs || [] }));
          return;
      }
      res.writeHead(s.status || 200, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ Outputs: s.outputs || {}, Logs: s.logs || [], ReturnValue: s.returnValue === undefined ? null : s.returnValue }));
    };
    if (s.delayMs) setTimeout(answer, s.delayMs); else answer();
  });
});
server.keepAliveTimeout = 60000;
server.listen(port, '127.0.0.1', () => console.log(`test handler listening on ${port}`));
