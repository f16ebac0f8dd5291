"""``make load``: a Saturday evening against the production setup, all on this machine.

PostgreSQL (a private cluster), Redis, two gunicorn servers and Caddy balancing them
(bench/evening/stack.py); tables seeded through the services (tables.py); Locust plays the
evening (locustfile.py): a scorekeeper per table recording donnes through the page's own form,
three followers polling the share link, a big screen now and then, a few exports. Stepped
runs find how many tables the setup holds with p99 under 200 ms and no error; a fault run
kills an app server, restarts Redis and PostgreSQL, then counts what scorekeepers were told
was recorded against what the database holds (run.py). Figures go to bench/results/."""
