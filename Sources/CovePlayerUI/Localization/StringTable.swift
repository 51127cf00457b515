/// One key's text in the nine built-in languages. Every field is required, so a key cannot ship with a
/// language missing; `StringTable` switches over every key, so a key cannot ship without an entry.
struct Translations: Sendable {
    let ar, de, en, es, fr, ja, ko, zhHans, zhHant: String

    /// The text for a built-in language, nil for any other.
    func text(for language: UILanguage) -> String? {
        switch language.code {
        case "ar": return ar
        case "de": return de
        case "en": return en
        case "es": return es
        case "fr": return fr
        case "ja": return ja
        case "ko": return ko
        case "zh-Hans": return zhHans
        case "zh-Hant": return zhHant
        default: return nil
        }
    }
}

/// The built-in strings, as Swift rather than resource bundles so the library needs no bundle lookup on
/// Linux. Digits stay Western in every language, as a terminal shows them.
enum StringTable {
    static func translations(for key: UIStringKey) -> Translations {
        switch key {
        case .play:
            return Translations(
                ar: "تشغيل", de: "Wiedergabe", en: "Play", es: "Reproducir", fr: "Lecture",
                ja: "再生", ko: "재생", zhHans: "播放", zhHant: "播放")
        case .pause:
            return Translations(
                ar: "إيقاف مؤقت", de: "Pause", en: "Pause", es: "Pausa", fr: "Pause",
                ja: "一時停止", ko: "일시정지", zhHans: "暂停", zhHant: "暫停")
        case .jumpBack:
            return Translations(
                ar: "رجوع {seconds} ث", de: "{seconds} s zurück", en: "Jump back {seconds} s", es: "Retroceder {seconds} s",
                fr: "Reculer de {seconds} s", ja: "{seconds}秒戻る", ko: "{seconds}초 뒤로", zhHans: "后退 {seconds} 秒", zhHant: "倒退 {seconds} 秒")
        case .captions:
            return Translations(
                ar: "الترجمة", de: "Untertitel", en: "Captions", es: "Subtítulos", fr: "Sous-titres",
                ja: "字幕", ko: "자막", zhHans: "字幕", zhHant: "字幕")
        case .closeCaptionsMenu:
            return Translations(
                ar: "إغلاق قائمة الترجمة", de: "Untertitelmenü schließen", en: "Close captions menu", es: "Cerrar menú de subtítulos",
                fr: "Fermer le menu des sous-titres", ja: "字幕メニューを閉じる", ko: "자막 메뉴 닫기", zhHans: "关闭字幕菜单", zhHant: "關閉字幕選單")
        case .audio:
            return Translations(
                ar: "الصوت", de: "Audio", en: "Audio", es: "Audio", fr: "Audio",
                ja: "音声", ko: "오디오", zhHans: "音频", zhHant: "音訊")
        case .off:
            return Translations(
                ar: "إيقاف", de: "Aus", en: "Off", es: "Desactivado", fr: "Désactivé",
                ja: "オフ", ko: "끄기", zhHans: "关闭", zhHant: "關閉")
        case .auto:
            return Translations(
                ar: "تلقائي", de: "Automatisch", en: "Auto", es: "Automático", fr: "Automatique",
                ja: "自動", ko: "자동", zhHans: "自动", zhHant: "自動")
        case .bitrate:
            return Translations(
                ar: "معدل البت", de: "Bitrate", en: "Bitrate", es: "Tasa de bits", fr: "Débit",
                ja: "ビットレート", ko: "비트레이트", zhHans: "码率", zhHant: "位元速率")
        case .closeBitrateMenu:
            return Translations(
                ar: "إغلاق قائمة معدل البت", de: "Bitrate-Menü schließen", en: "Close bitrate menu", es: "Cerrar menú de tasa de bits",
                fr: "Fermer le menu du débit", ja: "ビットレートメニューを閉じる", ko: "비트레이트 메뉴 닫기", zhHans: "关闭码率菜单", zhHant: "關閉位元速率選單")
        case .mute:
            return Translations(
                ar: "كتم الصوت", de: "Stummschalten", en: "Mute", es: "Silenciar", fr: "Couper le son",
                ja: "ミュート", ko: "음소거", zhHans: "静音", zhHant: "靜音")
        case .unmute:
            return Translations(
                ar: "إلغاء كتم الصوت", de: "Ton an", en: "Unmute", es: "Activar sonido", fr: "Rétablir le son",
                ja: "ミュート解除", ko: "음소거 해제", zhHans: "取消静音", zhHant: "取消靜音")
        case .enterFullScreen:
            return Translations(
                ar: "ملء الشاشة", de: "Vollbild", en: "Enter full screen", es: "Pantalla completa", fr: "Plein écran",
                ja: "フルスクリーン", ko: "전체 화면", zhHans: "全屏", zhHant: "全螢幕")
        case .exitFullScreen:
            return Translations(
                ar: "إنهاء ملء الشاشة", de: "Vollbild beenden", en: "Exit full screen", es: "Salir de pantalla completa",
                fr: "Quitter le plein écran", ja: "フルスクリーンを終了", ko: "전체 화면 종료", zhHans: "退出全屏", zhHant: "結束全螢幕")
        case .live:
            return Translations(
                ar: "مباشر", de: "Live", en: "Live", es: "En directo", fr: "En direct",
                ja: "ライブ", ko: "라이브", zhHans: "直播", zhHant: "直播")
        case .goToLive:
            return Translations(
                ar: "العودة للمباشر", de: "Zu Live springen", en: "Go to live", es: "Ir al directo", fr: "Revenir au direct",
                ja: "ライブに戻る", ko: "라이브로 이동", zhHans: "回到直播", zhHant: "回到直播")
        case .enterVRGogglesMode:
            return Translations(
                ar: "تشغيل وضع نظارات الواقع الافتراضي", de: "VR-Brillenmodus starten", en: "Enter VR goggles mode",
                es: "Activar modo de gafas de RV", fr: "Activer le mode casque VR", ja: "VRゴーグルモードにする", ko: "VR 고글 모드 켜기",
                zhHans: "进入 VR 眼镜模式", zhHant: "進入 VR 眼鏡模式")
        case .exitVRGogglesMode:
            return Translations(
                ar: "إنهاء وضع نظارات الواقع الافتراضي", de: "VR-Brillenmodus beenden", en: "Exit VR goggles mode",
                es: "Salir del modo de gafas de RV", fr: "Quitter le mode casque VR", ja: "VRゴーグルモードを終了", ko: "VR 고글 모드 끄기",
                zhHans: "退出 VR 眼镜模式", zhHant: "結束 VR 眼鏡模式")
        case .startPictureInPicture:
            return Translations(
                ar: "بدء صورة داخل صورة", de: "Bild-in-Bild starten", en: "Start picture in picture", es: "Iniciar imagen en imagen",
                fr: "Démarrer l’image dans l’image", ja: "ピクチャ・イン・ピクチャを開始", ko: "PIP 시작", zhHans: "开始画中画", zhHant: "開始子母畫面")
        case .stopPictureInPicture:
            return Translations(
                ar: "إيقاف صورة داخل صورة", de: "Bild-in-Bild beenden", en: "Stop picture in picture", es: "Detener imagen en imagen",
                fr: "Arrêter l’image dans l’image", ja: "ピクチャ・イン・ピクチャを終了", ko: "PIP 종료", zhHans: "停止画中画", zhHant: "停止子母畫面")
        case .playOnAnotherDevice:
            return Translations(
                ar: "التشغيل على جهاز آخر", de: "Auf anderem Gerät abspielen", en: "Play on another device",
                es: "Reproducir en otro dispositivo", fr: "Lire sur un autre appareil", ja: "別のデバイスで再生", ko: "다른 기기에서 재생",
                zhHans: "在其他设备上播放", zhHant: "在其他裝置上播放")
        case .currentTime:
            return Translations(
                ar: "الوقت الحالي", de: "Aktuelle Zeit", en: "Current time", es: "Tiempo actual", fr: "Temps écoulé",
                ja: "現在の時間", ko: "현재 시간", zhHans: "当前时间", zhHant: "目前時間")
        case .totalTime:
            return Translations(
                ar: "المدة الإجمالية", de: "Gesamtdauer", en: "Total time", es: "Duración total", fr: "Durée totale",
                ja: "合計時間", ko: "전체 시간", zhHans: "总时长", zhHant: "總長度")
        case .timeline:
            return Translations(
                ar: "المخطط الزمني", de: "Zeitleiste", en: "Timeline", es: "Línea de tiempo", fr: "Chronologie",
                ja: "タイムライン", ko: "타임라인", zhHans: "时间轴", zhHant: "時間軸")
        case .advertisement:
            return Translations(
                ar: "إعلان", de: "Werbung", en: "Advertisement", es: "Anuncio", fr: "Publicité",
                ja: "広告", ko: "광고", zhHans: "广告", zhHant: "廣告")
        case .adCountdown:
            return Translations(
                ar: "إعلان {index} من {count}", de: "Werbung {index} von {count}", en: "Ad {index} of {count}",
                es: "Anuncio {index} de {count}", fr: "Annonce {index} sur {count}", ja: "広告 {index}/{count}", ko: "광고 {index}/{count}",
                zhHans: "广告 {index}/{count}", zhHant: "廣告 {index}/{count}")
        case .adCountdownWithTimeLeft:
            return Translations(
                ar: "إعلان {index} من {count}، متبقٍ {time}", de: "Werbung {index} von {count}, noch {time}",
                en: "Ad {index} of {count}, {time} left", es: "Anuncio {index} de {count}, quedan {time}",
                fr: "Annonce {index} sur {count}, il reste {time}", ja: "広告 {index}/{count}、残り {time}",
                ko: "광고 {index}/{count}, {time} 남음", zhHans: "广告 {index}/{count}，剩余 {time}", zhHant: "廣告 {index}/{count}，剩餘 {time}")
        case .timeLeft:
            return Translations(
                ar: "متبقٍ {time}", de: "noch {time}", en: "{time} left", es: "quedan {time}", fr: "il reste {time}",
                ja: "残り {time}", ko: "{time} 남음", zhHans: "剩余 {time}", zhHant: "剩餘 {time}")
        case .videoWillResumeIn:
            return Translations(
                ar: "سيُستأنف الفيديو خلال {time}", de: "Dein Video wird in {time} fortgesetzt", en: "Your video will resume in {time}",
                es: "El vídeo se reanudará en {time}", fr: "Votre vidéo reprendra dans {time}", ja: "{time} 後に動画が再開されます",
                ko: "{time} 후 동영상이 다시 시작됩니다", zhHans: "视频将在 {time} 后继续", zhHant: "影片將在 {time} 後繼續")
        case .learnMore:
            return Translations(
                ar: "معرفة المزيد", de: "Mehr erfahren", en: "Learn more", es: "Más información", fr: "En savoir plus",
                ja: "詳細", ko: "자세히 알아보기", zhHans: "了解更多", zhHant: "瞭解更多")
        case .skipAd:
            return Translations(
                ar: "تخطي الإعلان", de: "Werbung überspringen", en: "Skip ad", es: "Omitir anuncio", fr: "Ignorer l’annonce",
                ja: "広告をスキップ", ko: "광고 건너뛰기", zhHans: "跳过广告", zhHant: "略過廣告")
        case .skipAdIn:
            return Translations(
                ar: "تخطي الإعلان خلال {time}", de: "Werbung in {time} überspringen", en: "Skip ad in {time}",
                es: "Omitir anuncio en {time}", fr: "Ignorer l’annonce dans {time}", ja: "{time} 後に広告をスキップ",
                ko: "{time} 후 광고 건너뛰기", zhHans: "{time} 后可跳过广告", zhHant: "{time} 後可略過廣告")
        case .loading:
            return Translations(
                ar: "جارٍ التحميل", de: "Wird geladen", en: "Loading", es: "Cargando", fr: "Chargement",
                ja: "読み込み中", ko: "로드 중", zhHans: "正在加载", zhHant: "正在載入")
        case .playing:
            return Translations(
                ar: "قيد التشغيل", de: "Wiedergabe läuft", en: "Playing", es: "Reproduciendo", fr: "Lecture en cours",
                ja: "再生中", ko: "재생 중", zhHans: "正在播放", zhHant: "正在播放")
        case .playingLive:
            return Translations(
                ar: "تشغيل مباشر", de: "Live-Wiedergabe", en: "Playing live", es: "Reproduciendo en directo", fr: "Lecture en direct",
                ja: "ライブ再生中", ko: "라이브 재생 중", zhHans: "正在直播", zhHant: "正在直播")
        case .paused:
            return Translations(
                ar: "متوقف مؤقتًا", de: "Pausiert", en: "Paused", es: "En pausa", fr: "En pause",
                ja: "一時停止中", ko: "일시정지됨", zhHans: "已暂停", zhHant: "已暫停")
        case .pausedAt:
            return Translations(
                ar: "متوقف مؤقتًا عند {time}", de: "Pausiert bei {time}", en: "Paused at {time}", es: "En pausa en {time}",
                fr: "En pause à {time}", ja: "{time} で一時停止中", ko: "{time}에서 일시정지됨", zhHans: "已暂停于 {time}", zhHant: "已暫停於 {time}")
        case .buffering:
            return Translations(
                ar: "جارٍ التخزين المؤقت", de: "Puffern", en: "Buffering", es: "Almacenando en búfer", fr: "Mise en mémoire tampon",
                ja: "バッファリング中", ko: "버퍼링 중", zhHans: "正在缓冲", zhHant: "正在緩衝")
        case .playbackEnded:
            return Translations(
                ar: "انتهى التشغيل", de: "Wiedergabe beendet", en: "Playback ended", es: "Reproducción finalizada", fr: "Lecture terminée",
                ja: "再生終了", ko: "재생 종료", zhHans: "播放结束", zhHant: "播放結束")
        case .playbackFailed:
            return Translations(
                ar: "فشل التشغيل", de: "Wiedergabe fehlgeschlagen", en: "Playback failed", es: "Error de reproducción",
                fr: "Échec de la lecture", ja: "再生に失敗しました", ko: "재생 실패", zhHans: "播放失败", zhHant: "播放失敗")
        case .position:
            return Translations(
                ar: "الموضع {time}", de: "Position {time}", en: "Position {time}", es: "Posición {time}", fr: "Position {time}",
                ja: "位置 {time}", ko: "위치 {time}", zhHans: "位置 {time}", zhHant: "位置 {time}")
        case .captionsSelection:
            return Translations(
                ar: "الترجمة: {name}", de: "Untertitel: {name}", en: "Captions: {name}", es: "Subtítulos: {name}",
                fr: "Sous-titres : {name}", ja: "字幕: {name}", ko: "자막: {name}", zhHans: "字幕：{name}", zhHant: "字幕：{name}")
        case .audioSelection:
            return Translations(
                ar: "الصوت: {name}", de: "Audio: {name}", en: "Audio: {name}", es: "Audio: {name}", fr: "Audio : {name}",
                ja: "音声: {name}", ko: "오디오: {name}", zhHans: "音频：{name}", zhHant: "音訊：{name}")
        case .bitrateSelection:
            return Translations(
                ar: "معدل البت: {name}", de: "Bitrate: {name}", en: "Bitrate: {name}", es: "Tasa de bits: {name}", fr: "Débit : {name}",
                ja: "ビットレート: {name}", ko: "비트레이트: {name}", zhHans: "码率：{name}", zhHant: "位元速率：{name}")
        case .returningToVideo:
            return Translations(
                ar: "العودة إلى الفيديو", de: "Zurück zum Video", en: "Returning to video", es: "Volviendo al vídeo",
                fr: "Retour à la vidéo", ja: "動画に戻ります", ko: "동영상으로 돌아갑니다", zhHans: "返回视频", zhHant: "返回影片")
        }
    }
}
