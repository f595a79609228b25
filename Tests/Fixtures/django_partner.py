"""Test fixture: a partner's OAuth server as many are built, on Django and django-oauth-toolkit (DOT), nobody's code
on this project but the settings: Django's own sign-in page (LoginView) and CSRF protection, DOT's authorization
page (its consent form, whose Cancel button has no name), token and revocation endpoints, served over https.

usage: python3 django_partner.py CERT KEY CLIENT_ID CLIENT_SECRET PROJECT_ID [refuse-sign-in]
Prints "listening on https://127.0.0.1:PORT", then serves until killed. Test users: approver, refuser and second,
each with the password "<name>-password". Over https Django's CSRF middleware refuses a POST that has no Referer, or
whose Origin or Referer is another origin ("Referer checking failed - no Referer"), as a deployment does.
With "refuse-sign-in" every POST to the sign-in page is answered 403: a sign-in that no walk gets through.
Needs the Python packages django and django-oauth-toolkit (CI installs them; without them the tests say so).
"""
import os, socketserver, ssl, sys, tempfile, threading
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

cert, key, client_id, client_secret, project_id = sys.argv[1:6]
refuse_sign_in = len(sys.argv) > 6 and sys.argv[6] == "refuse-sign-in"
home = tempfile.mkdtemp(prefix="django-partner-")
os.makedirs(os.path.join(home, "registration"))
with open(os.path.join(home, "registration", "login.html"), "w") as page:
    page.write("""<!doctype html><html><head><title>Sign in</title></head><body>
<form method="post" action="{% url 'login' %}">{% csrf_token %}
{{ form.as_p }}
<input type="hidden" name="next" value="{{ next }}">
<button type="submit">Sign in</button>
</form></body></html>""")

import django
from django.conf import settings

settings.configure(
    DEBUG=False,
    SECRET_KEY="django-partner-fixture-" + os.urandom(16).hex(),
    ALLOWED_HOSTS=["127.0.0.1", "localhost"],
    ROOT_URLCONF=__name__,
    INSTALLED_APPS=["django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions", "oauth2_provider"],
    MIDDLEWARE=["django.middleware.security.SecurityMiddleware", "django.contrib.sessions.middleware.SessionMiddleware",
                "django.middleware.common.CommonMiddleware", __name__ + ".refusing_sign_in",
                "django.middleware.csrf.CsrfViewMiddleware", "django.contrib.auth.middleware.AuthenticationMiddleware",
                "django.middleware.clickjacking.XFrameOptionsMiddleware"],
    DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(home, "db.sqlite3")}},
    TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "DIRS": [home], "APP_DIRS": True,
                "OPTIONS": {"context_processors": ["django.template.context_processors.request",
                                                   "django.contrib.auth.context_processors.auth"]}}],
    LOGIN_URL="/accounts/login/",
    SESSION_COOKIE_SECURE=True,
    CSRF_COOKIE_SECURE=True,
    USE_TZ=True,
    OAUTH2_PROVIDER={"SCOPES": {"devices": "Your devices"}, "PKCE_REQUIRED": False, "ALLOWED_REDIRECT_URI_SCHEMES": ["https"]},
    PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],  # test users only: fast to check
)
django.setup()

from django.contrib.auth import views as auth_views
from django.contrib.auth.models import User
from django.core.management import call_command
from django.http import HttpResponseForbidden
from django.urls import include, path


def refusing_sign_in(get_response):
    def middleware(request):
        if refuse_sign_in and request.method == "POST" and request.path == "/accounts/login/":
            return HttpResponseForbidden("<h1>403 Forbidden</h1>")
        return get_response(request)
    return middleware


urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
]

call_command("migrate", verbosity=0)
for name in ["approver", "refuser", "second"]:
    User.objects.create_user(name, password=name + "-password")
from oauth2_provider.models import Application

# Google's production and sandbox redirect URIs for the project, as a partner registers them.
redirect_uris = " ".join("https://oauth-redirect%s.googleusercontent.com/r/%s" % (host, project_id) for host in ["", "-sandbox"])
Application.objects.create(client_id=client_id, client_secret=client_secret, name="Google", client_type=Application.CLIENT_CONFIDENTIAL,
                           authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE, redirect_uris=redirect_uris)

from django.core.wsgi import get_wsgi_application

django_application = get_wsgi_application()
# One request in Django at a time: SQLite refuses concurrent writers ("database is locked", a 500), where a deployment
# would have a database server. The handshakes and the reading of requests stay concurrent.
serial = threading.Lock()


def application(environ, start_response):
    with serial:
        return list(django_application(environ, start_response))


class Handler(WSGIRequestHandler):
    def log_message(self, *args):
        pass

    def get_environ(self):
        environ = super().get_environ()
        environ["HTTPS"] = "on"
        environ["wsgi.url_scheme"] = "https"
        return environ


class Server(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True

    def get_request(self):
        connection, address = self.socket.accept()
        return connection, address

    def finish_request(self, request, client_address):
        # The handshake on the connection's own thread, so one slow client holds up nobody else.
        try:
            secure = context.wrap_socket(request, server_side=True)
        except (ssl.SSLError, OSError):
            request.close()
            return
        super().finish_request(secure, client_address)


context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server = make_server("127.0.0.1", 0, application, server_class=Server, handler_class=Handler)
print("listening on https://127.0.0.1:%d" % server.server_address[1], flush=True)
server.serve_forever()
