"""The inspector console: a server-rendered web front end over the audit store.

``casino-audit serve`` runs it (``cli.console``); ``console.app.create_app`` is the
ASGI factory. Pages read the store through the one judging path (``audit.judging``,
``audit.show``) and a read model of current findings (``console.readmodel.model``: rebuilt from
the store's events, never the source of truth). Accounts, sign-offs, incident notes and
every look at a subject's events are themselves events in the store
(``console.auth.accounts``, ``console.auth.trail``), so "who looked at this hand" is evidence too.

Nothing in ``audit``, ``pipelines`` or ``replayer`` imports this package (the command
line reaches it lazily). Every asset is served from ``console/static``: no outside address anywhere.
"""
