from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

from ramiscore.env import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ramiscore.settings")
require_secret_key()
application = get_wsgi_application()
