"""Test fixture: an authorization server written as many are, on Python's http.server, nobody on this project's code.

usage: python3 plain_python_server.py CLIENT_ID CLIENT_SECRET [close]
Prints "listening on http://127.0.0.1:PORT", then serves until killed. Speaks HTTP/1.1 with kept-alive connections
(ThreadingHTTPServer, one thread a connection) and, like BaseHTTPRequestHandler's own handlers, never reads the body
of a GET: the bytes stay on the connection and become the start of the next request there (answered 501
"Unsupported method"). Everything else is correct for the cases the tests send:

- GET /authorize: 302 to redirect_uri with a fresh code and the state;
With "close", a GET that carries a body is answered with "Connection: close" and its connection closed, as RFC 9110
§9.3.1 allows: what a careful server does instead of reading the body.

- POST /token: the code (once, with its redirect_uri) for a bearer token, client credentials in the body or Basic;
  anything else 400 invalid_grant or 401 invalid_client; GET /token: 405 with a JSON error, the body left unread.
"""
import base64, http.server, json, secrets, sys, threading, urllib.parse

client_id, client_secret = sys.argv[1], sys.argv[2]
closes = len(sys.argv) > 3 and sys.argv[3] == "close"
codes = {}
lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def json(self, status, value, headers=()):
        self.answer(status, json.dumps(value).encode(), [("Content-Type", "application/json"), ("Cache-Control", "no-store"),
                                                         ("Pragma", "no-cache")] + list(headers))

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path == "/authorize":
            redirect = query.get("redirect_uri", [""])[0]
            if query.get("client_id") != [client_id] or not redirect.startswith("https://"):
                return self.answer(400, b"bad request", [("Content-Type", "text/plain")])
            code = secrets.token_urlsafe(24)
            with lock:
                codes[code] = redirect
            location = redirect + "?" + urllib.parse.urlencode({"code": code, "state": query.get("state", [""])[0]})
            return self.answer(302, b"", [("Location", location)])
        if url.path == "/token":
            # The body of this GET is never read: http.server's handlers do not look at Content-Length for a GET.
            close = closes and int(self.headers.get("Content-Length", "0")) > 0
            if close:
                self.close_connection = True
            return self.json(405, {"error": "invalid_request", "error_description": "POST only"},
                             [("Allow", "POST")] + ([("Connection", "close")] if close else []))
        self.answer(404, b"not found", [("Content-Type", "text/plain")])

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        form = urllib.parse.parse_qs(self.rfile.read(length).decode())
        if urllib.parse.urlsplit(self.path).path != "/token":
            return self.answer(404, b"not found", [("Content-Type", "text/plain")])
        basic = self.headers.get("Authorization", "")
        if basic.startswith("Basic "):
            given_id, _, given_secret = base64.b64decode(basic[6:]).decode().partition(":")
            given_id, given_secret = urllib.parse.unquote_plus(given_id), urllib.parse.unquote_plus(given_secret)
        else:
            given_id, given_secret = form.get("client_id", [""])[0], form.get("client_secret", [""])[0]
        if (given_id, given_secret) != (client_id, client_secret):
            return self.json(401, {"error": "invalid_client"}, [("WWW-Authenticate", 'Basic realm="token"')])
        code = form.get("code", [""])[0]
        with lock:
            redirect = codes.pop(code, None)
        if form.get("grant_type") != ["authorization_code"] or redirect is None or form.get("redirect_uri") != [redirect]:
            return self.json(400, {"error": "invalid_grant"})
        self.json(200, {"access_token": secrets.token_urlsafe(32), "token_type": "Bearer", "expires_in": 3600})


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print("listening on http://127.0.0.1:%d" % server.server_address[1], flush=True)
server.serve_forever()
