// authwalk PORT N QUERY: the floor of the authorize row. N sign-in walks through appflip-reference serve on
// 127.0.0.1:PORT, each the four requests the suite sends (the sign-in page, its form, the consent page, its form),
// on one keep-alive connection, a fresh connection every 25 walks (100 requests, as kaclient). It does the least a
// client can: finds the two anti-forgery tokens and two cookies with strstr, reads each response by Content-Length,
// and checks that the last answer redirects with a code. Prints us per request.
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <time.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static int port;
static int dial(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0}; a.sin_family = AF_INET; a.sin_port = htons(port); a.sin_addr.s_addr = htonl(0x7f000001);
    if (connect(fd, (void *)&a, sizeof a)) { perror("connect"); exit(1); }
    int one = 1; setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}
static char buf[1 << 20];
// Sends len bytes and reads one response into buf (NUL-terminated); returns its status.
static int exchange(int fd, const char *request, size_t len) {
    if (write(fd, request, len) != (ssize_t)len) { perror("write"); exit(1); }
    size_t have = 0; long need = -1;
    for (;;) {
        ssize_t r = read(fd, buf + have, sizeof buf - 1 - have);
        if (r <= 0) { fprintf(stderr, "closed\n"); exit(1); }
        have += r; buf[have] = 0;
        char *end = strstr(buf, "\r\n\r\n");
        if (end && need < 0) {
            char *cl = strcasestr(buf, "\r\ncontent-length:");
            need = (end - buf) + 4 + (cl && cl < end ? atol(cl + 17) : 0);
        }
        if (need >= 0 && (long)have >= need) break;
    }
    return atoi(buf + 9);
}
// Copies the value after `marker` up to any of `stop` into out.
static void after(const char *marker, const char *stop, char *out, size_t size) {
    char *p = strstr(buf, marker);
    if (!p) { fprintf(stderr, "no %s in:\n%s\n", marker, buf); exit(1); }
    p += strlen(marker);
    size_t n = strcspn(p, stop);
    if (n >= size) n = size - 1;
    memcpy(out, p, n); out[n] = 0;
}
static void encode(const char *in, char *out) {
    for (; *in; in++) {
        unsigned char c = *in;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || strchr("-._~", c)) *out++ = c;
        else out += sprintf(out, "%%%02X", c);
    }
    *out = 0;
}
int main(int argc, char **argv) {
    port = atoi(argv[1]);
    int n = atoi(argv[2]);
    const char *query = argv[3];
    char target[4096], encodedTarget[8192], encodedQuery[8192];
    snprintf(target, sizeof target, "/oauth/authorize?%s", query);
    encode(target, encodedTarget);
    encode(query, encodedQuery);
    static char request[16384], body[16384];
    char login[256], session[256], token[256];
    int fd = -1, codes = 0;
    double start = now();
    for (int i = 0; i < n; i++) {
        if (i % 25 == 0) { if (fd >= 0) close(fd); fd = dial(); }
        int len = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n", target, port);
        exchange(fd, request, len);
        after("reference-login=", ";\r", login, sizeof login);
        after("name=\"csrf\" value=\"", "\"", token, sizeof token);
        int blen = snprintf(body, sizeof body, "csrf=%s&return_to=%s&username=approver&password=approver-password", token, encodedTarget);
        len = snprintf(request, sizeof request, "POST /login HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nCookie: reference-login=%s\r\n"
                       "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n%s", port, login, blen, body);
        exchange(fd, request, len);
        after("reference-session=", ";\r", session, sizeof session);
        len = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nCookie: reference-login=%s; reference-session=%s\r\n\r\n",
                       target, port, login, session);
        exchange(fd, request, len);
        after("name=\"csrf\" value=\"", "\"", token, sizeof token);
        blen = snprintf(body, sizeof body, "csrf=%s&request=%s&decision=approve", token, encodedQuery);
        len = snprintf(request, sizeof request, "POST /oauth/consent HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nCookie: reference-login=%s; reference-session=%s\r\n"
                       "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n%s", port, login, session, blen, body);
        int status = exchange(fd, request, len);
        if (status == 303 && strstr(buf, "code=")) codes++;
    }
    double el = now() - start;
    printf("sign-in walks n=%d requests=%d total=%.3f s per=%.1f us (codes %d)\n", n, n * 4, el, el / (n * 4) * 1e6, codes);
    return codes == n ? 0 : 1;
}
