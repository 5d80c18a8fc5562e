import type { LocaleTexts } from '../builtin-texts.js';

// Machine-assisted, not yet reviewed by a native speaker (see MACHINE_ASSISTED_LANGUAGES).
export const el: LocaleTexts = {
  widgetTitle: 'Ρυθμίσεις απορρήτου',
  widgetIntroText:
    'Σε αυτόν τον ιστότοπο χρησιμοποιούμε cookies και παρόμοιες τεχνολογίες. Ορισμένα από αυτά είναι απαραίτητα για τη λειτουργία του ιστότοπου. Άλλα μας βοηθούν να αναλύουμε τη χρήση του, να εξατομικεύουμε το περιεχόμενο ή να ενσωματώνουμε εξωτερικές υπηρεσίες· αυτά τα χρησιμοποιούμε μόνο με τη συγκατάθεσή σας. Μπορείτε να αλλάξετε ή να ανακαλέσετε τη συγκατάθεσή σας ανά πάσα στιγμή στις ρυθμίσεις. Λεπτομέρειες θα βρείτε στις ρυθμίσεις και στην πολιτική απορρήτου μας.',
  widgetDeclineButtonText: 'Απόρριψη όλων',
  widgetFullConsentButtonText: 'Αποδοχή όλων',
  widgetSettingsButtonText: 'Ρυθμίσεις',
  checkAllButtonText: 'Επιλογή όλων',
  uncheckAllButtonText: 'Αποεπιλογή όλων',
  imprint: 'Νομικές πληροφορίες',
  imprintHtmlCode: '',
  imprintUrl: '',
  privacyPolicy: 'Πολιτική απορρήτου',
  privacyPolicyHtmlCode: '',
  privacyPolicyUrl: '',
  accessibility: 'Προσβασιμότητα',
  accessibilityHtmlCode: '',
  accessibilityUrl: '',
  categoriesTitle: 'Επιλέξτε τι επιτρέπετε',
  categoriesCancelButtonText: 'Πίσω',
  categoriesFullConsentButtonText: 'Αποδοχή όλων',
  categoriesSaveButtonText: 'Αποθήκευση επιλογών',
  detailsTitle: 'Λεπτομέρειες υπηρεσιών',
  detailsCloseButtonText: 'Κλείσιμο',
  embeddingVendorLabel: 'Πάροχος',
  embeddingDescriptionLabel: 'Περιγραφή',
  embeddingPrivacyPolicyUrlLabel: 'Πολιτική απορρήτου του παρόχου',
  embeddingLifetimeLabel: 'Διάρκεια αποθήκευσης',
  embeddingWhichDataIsCollectedLabel: 'Δεδομένα που συλλέγονται',
  embeddingPurposeOfDataCollectionLabel: 'Σκοπός της επεξεργασίας',
  embeddingLegalBasisLabel: 'Νομική βάση',
  embeddingPlaceOfProcessingLabel: 'Τόπος επεξεργασίας',
  embeddingAssetNameLabel: 'Όνομα',
  embeddingAssetLifetimeLabel: 'Λήξη',
  embeddingAssetDescriptionLabel: 'Περιγραφή',
  blockedContentTitle: 'Αποκλεισμένο περιεχόμενο',
  blockedContentDisclaimer:
    'Αυτό το περιεχόμενο παρέχεται από εξωτερική υπηρεσία. Αν το φορτώσετε, η διεύθυνση IP σας και ενδεχομένως άλλα δεδομένα θα διαβιβαστούν στον πάροχο, ο οποίος μπορεί επίσης να αποθηκεύσει cookies.',
  blockedContentConsentButtonText: 'Φόρτωση περιεχομένου',
  blockedContentConsentSwitchShowExternalContent: 'Να εμφανίζεται πάντα εξωτερικό περιεχόμενο',
  blockedContentConsentSwitchAllowEmbedding: 'Να επιτρέπεται πάντα αυτή η υπηρεσία',
  blockedContentConsentSwitchProviderDetails: 'Στοιχεία παρόχου',
  changeConsentText: 'Αλλαγή ρυθμίσεων cookies',
  moreInformationLabel: 'Περισσότερες πληροφορίες',
  questionMarkButtonText: 'Λεπτομέρειες',
  languageLabel: 'Γλώσσα',
  tcfVendorIntroText:
    'Συνεργαζόμαστε με τους συνεργάτες που αναφέρονται εδώ. Μπορούν να αποθηκεύουν πληροφορίες στη συσκευή σας ή να έχουν πρόσβαση σε αυτές και να επεξεργάζονται προσωπικά δεδομένα για τους σκοπούς που εμφανίζονται. Ορισμένοι συνεργάτες βασίζονται σε έννομο συμφέρον αντί για συγκατάθεση· μπορείτε να αντιταχθείτε σε αυτό εδώ.',
  tcfPurposeLabel: 'Σκοποί',
  tcfSpecialPurposeLabel: 'Ειδικοί σκοποί',
  tcfFeaturesLabel: 'Λειτουργίες',
  tcfSpecialFeaturesLabel: 'Ειδικές λειτουργίες',
  tcfOptedInRemark: 'Μόνο με τη ρητή συγκατάθεσή σας',
  tcfThirdPartiesLabel: 'Τρίτοι πάροχοι',
  nonTcfPurposesLabel: 'Άλλοι σκοποί',
  nonTcfVendorsLabel: 'Άλλοι πάροχοι',
  tcfVendorUsesNonCookieStorageText:
    'Αυτός ο πάροχος χρησιμοποιεί και άλλους τρόπους αποθήκευσης, όπως τον τοπικό χώρο αποθήκευσης του προγράμματος περιήγησής σας.',
  tcfSpecialFeaturesHandledGloballyText:
    'Οι ειδικές λειτουργίες ισχύουν για όλους τους παρόχους και μπορούν να επιτραπούν ή να απορριφθούν μόνο για όλους μαζί.',
  tcfStacksListText: 'Περιλαμβάνει τους εξής σκοπούς:',
  tcfCookieRefreshText: 'Η διάρκεια αποθήκευσης μπορεί να ξεκινά από την αρχή σε κάθε επίσκεψή σας.',
  tcfExtendedDisclosureText: 'Αναλυτικές πληροφορίες για την αποθήκευση και την πρόσβαση',
  tcfAssetTypeLabel: 'Είδος',
  tcfAssetPurposesLabel: 'Σκοποί',
  purposeNames: {
    '41ba25c': 'Απολύτως απαραίτητα',
    'cdcbd7c': 'Μάρκετινγκ',
    'a717ff5': 'Στατιστικά',
    '7c19e32': 'Εξατομίκευση',
    '6cd2721': 'Μέσα κοινωνικής δικτύωσης',
    '15c61c3': 'Λοιπά',
  },
  purposeDescriptions: {
    '41ba25c':
      'Απαιτούνται για βασικές λειτουργίες όπως η πλοήγηση, η ασφάλεια και η αποθήκευση των ρυθμίσεων απορρήτου σας. Δεν μπορούν να απενεργοποιηθούν.',
    'cdcbd7c':
      'Χρησιμοποιούνται για την εμφάνιση διαφημίσεων σύμφωνα με τα ενδιαφέροντά σας και για τη μέτρηση της αποτελεσματικότητας καμπανιών, και σε άλλους ιστότοπους.',
    'a717ff5':
      'Μας βοηθούν να κατανοούμε πώς χρησιμοποιούν οι επισκέπτες τον ιστότοπο, για παράδειγμα ποιες σελίδες προβάλλονται περισσότερο, ώστε να τον βελτιώνουμε.',
    '7c19e32':
      'Θυμούνται τις προτιμήσεις και τις επιλογές σας, ώστε το περιεχόμενο και οι λειτουργίες να προσαρμόζονται σε εσάς.',
    '6cd2721':
      'Επιτρέπουν την ενσωμάτωση και την κοινοποίηση περιεχομένου από κοινωνικά δίκτυα. Τα δίκτυα μπορούν να χρησιμοποιούν τα δεδομένα και για δικούς τους σκοπούς.',
    '15c61c3':
      'Υπηρεσίες που δεν ανήκουν σε καμία από τις άλλες κατηγορίες. Λεπτομέρειες για κάθε υπηρεσία θα βρείτε στις ρυθμίσεις.',
  },
};
