"""Incidents: after a server failure, what was in flight, what refunds the rules require
and what the operator recorded as given back.

Modules: ``record`` (recording and amending an incident: its window and scope, stored
as events), ``inflight`` (the subjects in play when it struck), ``compare`` (each
subject's required refunds, by the rules of ``replayer.refunds`` and
``replayer.tournaments``, against the recorded ones), ``investigation`` (the whole
investigation and its findings as a verdict unit), ``report`` (text, JSON, CSV).
"""
