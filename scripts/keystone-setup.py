#!/usr/bin/env python3
"""Fills a freshly bootstrapped Keystone with what the Swift tests need, through Keystone's own API.

Called by scripts/local-store-keystone.sh. Reads its inputs from the environment (passwords are never
command-line arguments, which any user can read in ps), prints store.env lines on stdout and nothing
secret anywhere else:
  a project and a user with the member role on it (Swift's keystoneauth lets members use AUTH_<project id>);
  the object-store service with a public and an internal endpoint pointing at the Keystone-enabled proxy
  (the internal one by the name localhost, so that a test can tell which one the client chose);
  an application credential of that user, and one that expires a few seconds after it is made.
"""
import datetime
import json
import os
import secrets
import sys
import time
import urllib.error
import urllib.request

URL = os.environ["KS_URL"].rstrip("/")  # http://host:port/v3
REGION = os.environ["KS_REGION"]
SWIFT_PUBLIC = os.environ["KS_SWIFT_PUBLIC"]  # http://host:port of the Keystone proxy
SWIFT_INTERNAL = os.environ["KS_SWIFT_INTERNAL"]
ADMIN_PASSWORD = os.environ["KS_ADMIN_PASSWORD"]
USER_PASSWORD = os.environ["KS_USER_PASSWORD"]


def call(method, path, body=None, token=None):
    request = urllib.request.Request(URL + path, method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("X-Auth-Token", token)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode()
            return response.headers, (json.loads(text) if text else None)
    except urllib.error.HTTPError as e:
        # The path and status only: bodies may echo what was sent.
        sys.exit("keystone-setup: %s %s failed with %d" % (method, path, e.code))


def token(user, password, project):
    headers, _ = call("POST", "/auth/tokens", {"auth": {
        "identity": {"methods": ["password"], "password": {"user": {
            "name": user, "domain": {"id": "default"}, "password": password}}},
        "scope": {"project": {"name": project, "domain": {"id": "default"}}}}})
    return headers["X-Subject-Token"]


def main():
    admin = token("admin", ADMIN_PASSWORD, "admin")
    _, project = call("POST", "/projects", {"project": {"name": "stork", "domain_id": "default"}}, admin)
    project_id = project["project"]["id"]
    _, user = call("POST", "/users", {"user": {"name": "stork", "domain_id": "default",
                                               "password": USER_PASSWORD,
                                               "default_project_id": project_id}}, admin)
    user_id = user["user"]["id"]
    _, roles = call("GET", "/roles?name=member", None, admin)
    role_id = roles["roles"][0]["id"]
    call("PUT", "/projects/%s/users/%s/roles/%s" % (project_id, user_id, role_id), None, admin)

    _, service = call("POST", "/services", {"service": {"type": "object-store", "name": "swift"}}, admin)
    for interface, base in (("public", SWIFT_PUBLIC), ("internal", SWIFT_INTERNAL)):
        call("POST", "/endpoints", {"endpoint": {
            "service_id": service["service"]["id"], "interface": interface, "region_id": REGION,
            "url": base + "/v1/AUTH_%(tenant_id)s"}}, admin)

    # Application credentials are made with the user's own project-scoped token.
    mine = token("stork", USER_PASSWORD, "stork")
    secret = secrets.token_urlsafe(24)
    _, credential = call("POST", "/users/%s/application_credentials" % user_id, {"application_credential": {
        "name": "stork-tests", "secret": secret}}, mine)
    expired_secret = secrets.token_urlsafe(24)
    expires = datetime.datetime.utcnow() + datetime.timedelta(seconds=2)
    _, expired = call("POST", "/users/%s/application_credentials" % user_id, {"application_credential": {
        "name": "stork-tests-expired", "secret": expired_secret,
        "expires_at": expires.strftime("%Y-%m-%dT%H:%M:%S")}}, mine)

    lines = {
        "STORK_KEYSTONE_PROJECT": "stork",
        "STORK_KEYSTONE_PROJECT_ID": project_id,
        "STORK_KEYSTONE_USER": "stork",
        "STORK_KEYSTONE_USER_ID": user_id,
        "STORK_KEYSTONE_PASSWORD": USER_PASSWORD,
        "STORK_KEYSTONE_MEMBER_ROLE_ID": role_id,
        "STORK_KEYSTONE_APP_CREDENTIAL_ID": credential["application_credential"]["id"],
        "STORK_KEYSTONE_APP_CREDENTIAL_NAME": "stork-tests",
        "STORK_KEYSTONE_APP_CREDENTIAL_SECRET": secret,
        "STORK_KEYSTONE_EXPIRED_APP_CREDENTIAL_ID": expired["application_credential"]["id"],
        "STORK_KEYSTONE_EXPIRED_APP_CREDENTIAL_SECRET": expired_secret,
    }
    # One call through the Keystone proxy: its authtoken middleware gets its own service token now, so
    # that the tests count only their own token calls at Keystone.
    warm = urllib.request.Request("%s/v1/AUTH_%s" % (SWIFT_PUBLIC, project_id), method="HEAD")
    warm.add_header("X-Auth-Token", mine)
    try:
        urllib.request.urlopen(warm, timeout=30).close()
    except urllib.error.HTTPError as e:
        if e.code not in (404,):
            sys.exit("keystone-setup: the Keystone proxy answers %d to the user's token" % e.code)

    # Wait until the short-lived credential has expired, so the tests find it so.
    time.sleep(max(0.0, (expires - datetime.datetime.utcnow()).total_seconds() + 0.5))
    for key, value in lines.items():
        print("%s=%s" % (key, value))


if __name__ == "__main__":
    main()
