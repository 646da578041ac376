// The cheapest possible custom handler: reads the request, answers an empty invocation result.
'use strict';
const http = require('http');
const answer = Buffer.from('{"Outputs":{},"Logs":[],"ReturnValue":null}');
http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': answer.length });
    res.end(answer);
  });
}).listen(Number(process.env.FUNCTIONS_CUSTOMHANDLER_PORT), '127.0.0.1');
