from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User


class SignupForm(UserCreationForm[User]):
    name = forms.CharField(max_length=80, help_text="The name shown in standings and at the table.")
    email = forms.EmailField(required=False, help_text="Optional; only used to reset your password.")

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "name", "email")


class ProfileForm(forms.Form):
    name = forms.CharField(max_length=80)
    email = forms.EmailField(required=False)
    birth_year = forms.IntegerField(
        required=False,
        min_value=1900,
        max_value=2100,
        help_text="Optional. Some games break ties 'youngest first' (Black Spy's Mole).",
    )
