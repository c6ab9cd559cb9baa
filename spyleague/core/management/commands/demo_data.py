from typing import Any

from django.core.management.base import BaseCommand

from ...demo import DEMO_ADMIN, demo_admin_ensure, demo_data_load, demo_logins


class Command(BaseCommand):
    help = "Load the demo club, players and events (does nothing if they are already there)."

    def handle(self, *args: Any, **options: Any) -> None:
        result = demo_data_load(progress=lambda done, total, message: self.stdout.write(f"  {message}"))
        self.stdout.write(
            self.style.SUCCESS("Demo data ready." if result["created"] else "Demo data already there.")
        )
        self.stdout.write(f"Demo logins (password for each: {demo_logins()[0]['password']}):")
        for login in demo_logins():
            self.stdout.write(f"  {login['username']:8} {login['name']} ({login['role']})")
        demo_admin_ensure()
        self.stdout.write(f"  {DEMO_ADMIN:8} the site's administrator (Django admin at /admin/; in no club)")
