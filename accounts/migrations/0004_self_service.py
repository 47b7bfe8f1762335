from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0003_bot_personas"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="sounds",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="user",
            name="notifications",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="user",
            name="email_verified",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="user",
            name="deleted_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
