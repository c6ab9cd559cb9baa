from django import forms

from ..core.limits import DESCRIPTION_MAX
from .models import Role


class ClubForm(forms.Form):
    name = forms.CharField(max_length=100)
    city = forms.CharField(max_length=80, required=False)
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        max_length=DESCRIPTION_MAX,
        help_text=f"Optional; at most {DESCRIPTION_MAX:,} characters.",
    )


class GuestForm(forms.Form):
    name = forms.CharField(max_length=80, label="Add a player without an account")


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Role.choices)
