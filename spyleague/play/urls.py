from django.urls import path

from . import views

app_name = "play"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("matches/<int:pk>/", views.match_detail, name="match"),
]
