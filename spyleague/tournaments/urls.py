from django.urls import path

from . import views

app_name = "tournaments"
urlpatterns = [
    path("", views.event_index, name="list"),
    path("<int:pk>/", views.event_detail, name="event"),
    path("new/<slug:slug>/", views.event_create, name="create"),
]
