from django.urls import path

from . import views

app_name = "scores"
urlpatterns = [
    path("", views.pad_list, name="pads"),
    path("new/", views.pad_new, name="pad-new"),
    path("<id:pk>/", views.pad_detail, name="pad"),
    path("<id:pk>/deal/", views.pad_deal, name="pad-deal"),
    path("<id:pk>/confirm/", views.pad_confirm, name="pad-confirm"),
]
