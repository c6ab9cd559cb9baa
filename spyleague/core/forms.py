from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.db import transaction


class SignupForm(UserCreationForm[User]):
    name = forms.CharField(max_length=80, help_text="The name shown in standings and at the table.")
    email = forms.EmailField(required=False, help_text="Optional; only used to reset your password.")

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "name", "email")

    def save_account(self) -> tuple[User, Any]:
        """The new account and its player, named as the form says (for the page and the API)."""
        from ..clubs.services import player_ensure_for_user

        with transaction.atomic():
            user = self.save(commit=False)
            user.email = self.cleaned_data.get("email") or ""
            user.save()
            player = player_ensure_for_user(user=user)
            player.name = self.cleaned_data["name"]
            player.save(update_fields=["name"])
        return user, player


class ProfileForm(forms.Form):
    name = forms.CharField(max_length=80)
    email = forms.EmailField(required=False)
    birth_year = forms.IntegerField(
        required=False,
        min_value=1900,
        max_value=2100,
        help_text="Optional. Some games break ties 'youngest first' (Black Spy's Mole).",
    )
