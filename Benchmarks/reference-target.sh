#!/usr/bin/env bash
# Prints a target configuration for `appflip-reference serve` listening at BASE (http://127.0.0.1:PORT), for the
# benchmarks that send the suite at a reference server in its own process (floors.sh, instructions.sh):
#
#   bash Benchmarks/reference-target.sh BASE cookie   # the approving user by the test hook's cookie: one request a case
#   bash Benchmarks/reference-target.sh BASE pages    # the approving user through the sign-in and consent pages
#
# The client secret is read from APPFLIP_CLIENT_SECRET (the reference server's is reference-secret).
set -euo pipefail
base=$1
cat <<TARGET
client_id: google-client
client_secret_env: APPFLIP_CLIENT_SECRET
project_id: reference-project
app_id: ABCDE12345.com.example.reference
link: https://app.example/flip
scope: devices
endpoints:
  authorize: $base/oauth/authorize
TARGET
case $2 in
  cookie) printf 'scenarios:\n  consent:\n    Cookie: reference-user=approver\n' ;;
  pages) printf 'sign_in:\n  consent:\n    form: "username,password"\n    fields:\n      username: approver\n      password: approver-password\n    consent_form: "action:/oauth/consent"\n    consent_button: decision=approve\n' ;;
  *) echo "reference-target: the user signs in by 'cookie' or 'pages', not '$2'" >&2; exit 2 ;;
esac
