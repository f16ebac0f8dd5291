from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

from ramiscore.env import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ramiscore.settings")
require_secret_key()
application = get_asgi_application()
