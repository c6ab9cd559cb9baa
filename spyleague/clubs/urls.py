from django.urls import path

from . import views

app_name = "clubs"
urlpatterns = [
    path("", views.club_index, name="list"),
    path("new/", views.club_create, name="create"),
    path("players/<id:pk>/", views.player_detail, name="player"),
    path("<slug:slug>/", views.club_detail, name="detail"),
    path("<slug:slug>/join/", views.club_join, name="join"),
    path("<slug:slug>/leave/", views.club_leave, name="leave"),
    path("<slug:slug>/guests/", views.guest_add, name="guest-add"),
    path("<slug:slug>/members/<id:pk>/role/", views.member_role, name="member-role"),
]
