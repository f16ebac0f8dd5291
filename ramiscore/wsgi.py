from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

from ramiscore.env import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ramiscore.settings")
require_secret_key()
django_application = get_wsgi_application()

# Imported once Django is set up: the gate reads the models' cache keys and the URLconf.
from games.follow_gate import FollowPollGate  # noqa: E402

application = FollowPollGate(django_application)
