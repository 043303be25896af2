from .tokens import TokenManager
