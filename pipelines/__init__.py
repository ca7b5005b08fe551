"""Nightly reconciliation and incident pipelines: Airflow DAGs over plain functions."""
