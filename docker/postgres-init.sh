#!/bin/sh
# Runs once, when the PostgreSQL volume is first initialised (docker-entrypoint-initdb.d).
# POSTGRES_USER is a superuser, and a superuser bypasses row-level security: the app connects as
# its own role instead, which owns the budget database (and so the tables its migrations create)
# and is neither a superuser nor BYPASSRLS, so the policies bind every query it makes.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
  -v app_password="$APP_DB_PASSWORD" <<'SQL'
create role budget_app login nosuperuser nobypassrls nocreatedb nocreaterole password :'app_password';
create database budget owner budget_app encoding 'UTF8';
SQL
