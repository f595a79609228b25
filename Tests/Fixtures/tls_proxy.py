"""Test fixture: terminates TLS on a loopback port and relays each connection to a plain-HTTP loopback port.

usage: python3 tls_proxy.py CERT KEY TARGET_PORT [OPTION...]
Options, each a broken server of a probe:
  legacy          also accepts TLS 1.0 and 1.1 (what RFC 8996 forbids)
  slow            answers every ClientHello 6 s late (a legacy server the old 5 s probe passed)
  no-fs           TLS 1.2 at most, with RSA key exchange only (AES128-GCM-SHA256): no forward secrecy
  close-notify    ends a connection the upstream closed with a TLS close_notify (without it, the socket is shut and
                  no close_notify sent: a cut the client cannot tell from the end)
Prints the port it listens on, then serves until killed. Used only by the HTTPS tests.
"""
import select, socket, ssl, sys, threading, time, warnings

warnings.simplefilter("ignore", DeprecationWarning)

cert, key, target = sys.argv[1], sys.argv[2], int(sys.argv[3])
options = set(sys.argv[4:])
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
if "legacy" in options:
    context.minimum_version = ssl.TLSVersion.TLSv1
    context.set_ciphers("DEFAULT:@SECLEVEL=0")
if "no-fs" in options:
    context.maximum_version = ssl.TLSVersion.TLSv1_2
    context.set_ciphers("AES128-GCM-SHA256")
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(64)
print(listener.getsockname()[1], flush=True)


def relay_notifying(secure, upstream):
    """Both directions on one thread, so that the close_notify sent when the upstream closes never races a read of
    the same TLS connection on another thread (OpenSSL's objects are not for two threads at once)."""
    try:
        while True:
            readable = [secure] if secure.pending() else select.select([secure, upstream], [], [], 30)[0]
            if not readable:
                return
            for source in readable:
                data = source.recv(65536)
                if not data:
                    if source is upstream:
                        secure.settimeout(2)
                        secure.unwrap()
                    return
                (upstream if source is secure else secure).sendall(data)
    except (OSError, ValueError):
        pass
    finally:
        for end in (secure, upstream):
            try:
                end.close()
            except OSError:
                pass


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
    if "slow" in options:
        time.sleep(6)
    try:
        secure = context.wrap_socket(client, server_side=True)
    except (ssl.SSLError, OSError):
        client.close()
        return
    upstream = socket.create_connection(("127.0.0.1", target))
    if "close-notify" in options:
        relay_notifying(secure, upstream)
        return
    threading.Thread(target=pump, args=(upstream, secure), daemon=True).start()
    pump(secure, upstream)


while True:
    connection, _ = listener.accept()
    threading.Thread(target=serve, args=(connection,), daemon=True).start()
