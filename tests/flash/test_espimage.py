"""The MicroPython image is checked before anything is erased: a whole-flash .bin for the
board's chip passes; anything else is refused with the reason, in one line."""
import pytest

from dicecup_host import espimage

from images import image


@pytest.mark.parametrize("chip", sorted(espimage.OFFSETS))
def test_a_whole_flash_image_for_the_chip_passes(chip):
    said = espimage.check(image(chip, size=1600000), chip)
    assert said.startswith(chip + " image, 1.5 MB") and "4 MB flash" in said


def test_an_image_for_another_chip_is_refused_naming_both():
    with pytest.raises(espimage.ImageError, match="built for an esp32s3, the board is an esp32"):
        espimage.check(image("esp32s3"), "esp32")


@pytest.mark.parametrize("data, why", [
    (b"", "too small"),
    (b"\x7fELF" + bytes(100), "ELF file"),
    (b"UF2\n" + bytes(100), "UF2 file"),
    (b"PK\x03\x04" + bytes(100), "zip archive"),
    (b"# README\n" + bytes(100), "magic 0xE9"),
])
def test_what_is_not_an_esp_image_is_named(data, why):
    with pytest.raises(espimage.ImageError, match=why):
        espimage.check(data, "esp32")


def test_a_damaged_or_cut_image_is_refused():
    good = image()
    with pytest.raises(espimage.ImageError, match="checksum"):
        espimage.check(image(checksum=0x00), "esp32")
    with pytest.raises(espimage.ImageError, match="cut short"):
        espimage.check(good[:100], "esp32")
    bad = bytearray(good)
    bad[1] = 0
    with pytest.raises(espimage.ImageError, match="0 segments"):
        espimage.check(bytes(bad), "esp32")


def test_an_app_image_alone_is_refused_it_belongs_elsewhere():
    with pytest.raises(espimage.ImageError, match="no partition table at flash 0x8000 .*goes at 0x1000"):
        espimage.check(image(table=False), "esp32")


def test_an_image_bigger_than_its_flash_is_refused():
    with pytest.raises(espimage.ImageError, match="more than the 1 MB flash"):
        espimage.check(image(flash_nibble=0, size=1100000), "esp32")


def test_a_file_that_cannot_be_read_is_said(tmp_path):
    with pytest.raises(espimage.ImageError, match="no such file"):
        espimage.read(str(tmp_path / "nope.bin"))
    with pytest.raises(espimage.ImageError, match="is a folder"):
        espimage.read(str(tmp_path))
