"""The console's pages: one router module per group of pages (``main``: overview,
search, findings, evidence; ``subjects``; ``nights``; ``incidents``; ``admin``), the
data a page shows beyond the read model (``night_reads``, ``subject_links``) and the
template filters (``render``)."""
