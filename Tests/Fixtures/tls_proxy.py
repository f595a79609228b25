"""Test fixture: terminates TLS on a loopback port and relays each connection to a plain-HTTP loopback port.

usage: python3 tls_proxy.py CERT KEY TARGET_PORT [legacy]
With "legacy" it also accepts TLS 1.0 and 1.1 (what RFC 8996 forbids): the broken server of the legacy-TLS probe.
Prints the port it listens on, then serves until killed. Used only by the HTTPS tests.
"""
import socket, ssl, sys, threading, warnings

warnings.simplefilter("ignore", DeprecationWarning)

cert, key, target = sys.argv[1], sys.argv[2], int(sys.argv[3])
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
if len(sys.argv) > 4 and sys.argv[4] == "legacy":
    context.minimum_version = ssl.TLSVersion.TLSv1
    context.set_ciphers("DEFAULT:@SECLEVEL=0")
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(64)
print(listener.getsockname()[1], flush=True)


def pump(source, sink):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(client):
    try:
        secure = context.wrap_socket(client, server_side=True)
    except (ssl.SSLError, OSError):
        client.close()
        return
    upstream = socket.create_connection(("127.0.0.1", target))
    threading.Thread(target=pump, args=(upstream, secure), daemon=True).start()
    pump(secure, upstream)


while True:
    connection, _ = listener.accept()
    threading.Thread(target=serve, args=(connection,), daemon=True).start()
