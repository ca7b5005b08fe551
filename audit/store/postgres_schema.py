"""The store's tables in PostgreSQL: what ``ChainedPostgresApplicationRecorder`` creates.

Beside eventsourcing's events table (here with the chain columns: ``chain_prev``,
``chain_hash``, ``chain_shard``, ``chain_form``): the checkpoints table, the retention
tables (the retention records, the retired subjects, the retention signatures), the index
that finds a shard's head, and on every one of them the triggers by which the database
itself refuses UPDATE, DELETE and TRUNCATE (the store is append-only). A store made
before the Merkle tree or the chain shards gains their columns when its tables are set
up (``tree_columns``, and the shard columns in ``store_tables``), each checked first so
that opening a current store takes no ALTER TABLE lock.
"""

from __future__ import annotations

from dataclasses import dataclass

from psycopg.sql import SQL, Composed, Identifier, Literal

from audit.store.chain import LEGACY_FORM


@dataclass(frozen=True)
class TableNames:
    """The names of one store's tables: the events table's and those named after it
    (``<events>_<suffix>``, ``SUFFIXES``)."""

    schema: str
    events: str
    checkpoints: str
    retention: str
    retired: str
    signatures: str

    @classmethod
    def of(cls, schema: str, events: str) -> TableNames:
        return cls(schema, events, *(f"{events}_{suffix}" for suffix in SUFFIXES))


SUFFIXES = ("checkpoints", "retention", "retired", "retention_signatures")
"""The suffixes of the checkpoints, retention, retired and retention signatures tables."""

_REFUSE_FUNCTION = """
CREATE OR REPLACE FUNCTION {schema}.casino_audit_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'casino-audit: % on % refused: the store is append-only',
        TG_OP, TG_TABLE_NAME;
END;
$$
"""

# A checkpoints table made before the Merkle tree gains the tree-head columns; checked
# first, so that opening a current store does not take ALTER TABLE's exclusive lock.
_ADD_TREE_COLUMNS = """
DO $casino_audit$
BEGIN
    IF (SELECT count(*) FROM information_schema.columns WHERE table_schema = {schema_name}
        AND table_name = {table_name}
        AND column_name IN ('tree_root', 'tree_frontier', 'head_time')) < 3 THEN
        ALTER TABLE {schema}.{checkpoints} ADD COLUMN IF NOT EXISTS tree_root bytea,
            ADD COLUMN IF NOT EXISTS tree_frontier bytea,
            ADD COLUMN IF NOT EXISTS head_time bigint;
    END IF;
END
$casino_audit$
"""

# A store made before chain shards gains the shard column (its rows all on the main
# chain: a constant default, no table rewrite), the chain form column (its rows all in
# the legacy form, likewise), the index that finds a shard's head and the checkpoints'
# shard heads; checked first, like the tree columns.
_ADD_SHARD_COLUMNS = """
DO $casino_audit$
BEGIN
    IF (SELECT count(*) FROM information_schema.columns WHERE table_schema = {schema_name}
        AND ((table_name = {table_name} AND column_name IN ('chain_shard', 'chain_form'))
          OR (table_name = {checkpoints_name} AND column_name = 'shard_heads'))) < 3 THEN
        ALTER TABLE {schema}.{table} ADD COLUMN IF NOT EXISTS chain_shard text NOT NULL
            DEFAULT '';
        ALTER TABLE {schema}.{table} ADD COLUMN IF NOT EXISTS chain_form smallint NOT NULL
            DEFAULT {legacy};
        ALTER TABLE {schema}.{checkpoints} ADD COLUMN IF NOT EXISTS shard_heads bytea;
    END IF;
END
$casino_audit$
"""


def events_table(names: TableNames, id_type: str) -> Composed:
    """The events table, eventsourcing's with the chain columns."""
    return SQL(
        "CREATE TABLE IF NOT EXISTS {schema}.{table} ("
        "originator_id {id_type} NOT NULL, originator_version bigint NOT NULL, "
        "topic text NOT NULL, state bytea NOT NULL, notification_id bigserial, "
        "chain_prev bytea NOT NULL, chain_hash bytea NOT NULL, "
        "chain_shard text NOT NULL DEFAULT '', "
        "chain_form smallint NOT NULL DEFAULT {legacy}, "
        "PRIMARY KEY (originator_id, originator_version))"
    ).format(
        schema=Identifier(names.schema),
        table=Identifier(names.events),
        id_type=Identifier(id_type),
        legacy=Literal(LEGACY_FORM),
    )


def tree_columns(names: TableNames) -> Composed:
    """The Merkle tree's columns added to a checkpoints table made before it."""
    return SQL(_ADD_TREE_COLUMNS).format(
        schema=Identifier(names.schema),
        checkpoints=Identifier(names.checkpoints),
        schema_name=Literal(names.schema),
        table_name=Literal(names.checkpoints),
    )


def store_tables(names: TableNames) -> list[Composed]:
    """Every statement after the events table's, in order: the refusing function, the
    checkpoints and retention tables, the tree and shard columns of an older store, the
    shard index, then the append-only triggers on every table."""
    schema, table = Identifier(names.schema), Identifier(names.events)
    checkpoints = Identifier(names.checkpoints)
    owners = [Identifier(n) for n in (names.retention, names.retired, names.signatures)]
    statements = [
        SQL(_REFUSE_FUNCTION).format(schema=schema),
        SQL(
            "CREATE TABLE IF NOT EXISTS {schema}.{checkpoints} ("
            "notification_id bigint PRIMARY KEY, chain_hash bytea NOT NULL, "
            "event_count bigint NOT NULL, signature bytea NOT NULL, key_id text NOT NULL, "
            "tree_root bytea, tree_frontier bytea, head_time bigint, shard_heads bytea)"
        ).format(schema=schema, checkpoints=checkpoints),
        SQL(
            "CREATE TABLE IF NOT EXISTS {schema}.{retention} ("
            "checkpoint_id bigint PRIMARY KEY, retired_rows bigint NOT NULL, "
            "archived_rows bigint NOT NULL, retired_at bigint NOT NULL, "
            "archive_sha256 text NOT NULL)"
        ).format(schema=schema, retention=owners[0]),
        SQL(
            "CREATE TABLE IF NOT EXISTS {schema}.{retired} ("
            "originator_id uuid PRIMARY KEY, checkpoint_id bigint NOT NULL)"
        ).format(schema=schema, retired=owners[1]),
        SQL(
            "CREATE TABLE IF NOT EXISTS {schema}.{signatures} ("
            "checkpoint_id bigint PRIMARY KEY, signature bytea NOT NULL, key_id text NOT NULL)"
        ).format(schema=schema, signatures=owners[2]),
        tree_columns(names),
        SQL(_ADD_SHARD_COLUMNS).format(
            schema=schema,
            table=table,
            checkpoints=checkpoints,
            schema_name=Literal(names.schema),
            table_name=Literal(names.events),
            checkpoints_name=Literal(names.checkpoints),
            legacy=Literal(LEGACY_FORM),
        ),
        SQL(
            "CREATE INDEX IF NOT EXISTS {index} ON {schema}.{table} (chain_shard, notification_id)"
        ).format(index=Identifier(f"{names.events}_shard_idx"), schema=schema, table=table),
    ]
    for target in (table, checkpoints, *owners):
        statements += [
            SQL(
                "CREATE OR REPLACE TRIGGER casino_audit_append_only "
                "BEFORE UPDATE OR DELETE ON {schema}.{target} "
                "FOR EACH ROW EXECUTE FUNCTION {schema}.casino_audit_refuse_change()"
            ).format(schema=schema, target=target),
            SQL(
                "CREATE OR REPLACE TRIGGER casino_audit_no_truncate "
                "BEFORE TRUNCATE ON {schema}.{target} "
                "FOR EACH STATEMENT EXECUTE FUNCTION {schema}.casino_audit_refuse_change()"
            ).format(schema=schema, target=target),
        ]
    return statements
