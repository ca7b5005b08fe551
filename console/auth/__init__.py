"""Who may see what: the signed-in viewer, permissions per route, CSRF and the sign-in
pages (``access``), the accounts (``accounts``) and the trail of who looked at what
(``trail``). Sessions and sign-in limits are ``console.security``, below the runtime."""
