from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "spyleague.ratings"
    label = "ratings"
    verbose_name = "Ratings and leaderboards"
