"""Function views, one module per part of the app (the htmx control flow stays visible)."""
