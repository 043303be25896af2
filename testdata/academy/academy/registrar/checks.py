"""Field checks shared by the registrar's models and forms."""
from django.core.exceptions import ValidationError
from django.utils import timezone


def not_after_today(value) -> None:
    """Refuse a day that has not come yet."""
    if value >= timezone.localdate():
        raise ValidationError("%(value)s has not happened yet.", params={"value": value})


def plausible_birth_year(value: int) -> None:
    if not 1900 <= value <= 2100:
        raise ValidationError("Year of birth out of range.")
